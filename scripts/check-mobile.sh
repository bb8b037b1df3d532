#!/usr/bin/env bash
# Type-checks the app crate for the phone targets that can be checked on Linux.
# APK and IPA packaging needs the Android NDK/Gradle and Xcode: .github/workflows/mobile.yml.
# A target rustup could not install (its download server is not a guaranteed registry on
# these machines) is reported as SKIPPED, loudly; a target that is there must type-check.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
skipped=0
checked=0
for t in aarch64-linux-android armv7-linux-androideabi x86_64-linux-android; do
  if ! rustup target list --installed 2>/dev/null | grep -qx "$t"; then
    echo "check-mobile: SKIPPED $t — the Rust target is not installed and could not be" \
      "installed here (rustup's download server unreachable?). Run: rustup target add $t"
    skipped=$((skipped + 1))
    continue
  fi
  echo "check-mobile: cargo check -p wuzi-app --target $t"
  cargo check -p wuzi-app --target "$t" --locked --quiet || status=1
  checked=$((checked + 1))
done
echo "check-mobile: $checked Android targets checked, $skipped skipped"

echo "check-mobile: iOS (aarch64-apple-ios) needs Xcode's xcrun for tauri's build script;" \
  "it is built by the macos job in .github/workflows/mobile.yml"
exit $status
