#!/usr/bin/env bash
# Type-checks the app crate for the phone targets that can be checked on Linux.
# APK and IPA packaging needs the Android NDK/Gradle and Xcode: .github/workflows/mobile.yml.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
for t in aarch64-linux-android armv7-linux-androideabi x86_64-linux-android; do
  if ! rustup target list --installed 2>/dev/null | grep -qx "$t"; then
    echo "check-mobile: Rust target $t is not installed and could not be installed here" \
      "(rustup's download server unreachable?) — NOT checked. Run: rustup target add $t"
    status=1
    continue
  fi
  echo "check-mobile: cargo check -p wuzi-app --target $t"
  cargo check -p wuzi-app --target "$t" --locked --quiet || status=1
done
echo "check-mobile: iOS (aarch64-apple-ios) needs Xcode's xcrun for tauri's build script;" \
  "it is built by the macos job in .github/workflows/mobile.yml"
exit $status
