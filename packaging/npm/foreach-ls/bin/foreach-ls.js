#!/usr/bin/env node
// The `foreach-ls` command of the npm package: runs the binary of the package `@foreach-ls/<platform>-<arch>`, the
// optional dependency npm installs only where its `os` and `cpu` match (the esbuild and biome pattern), with the same
// arguments, standard streams and exit status. scripts/package-npm.sh builds the platform packages from the release
// archives.
"use strict";

const { spawnSync } = require("node:child_process");

const platform = `${process.platform}-${process.arch}`;
const pkg = `@foreach-ls/${platform}`;
const exe = process.platform === "win32" ? "foreach-ls.exe" : "foreach-ls";
const { optionalDependencies } = require("../package.json");

let binary;
try {
  binary = require.resolve(`${pkg}/bin/${exe}`);
} catch {
  const why =
    pkg in optionalDependencies
      ? `its package ${pkg} is not installed: install again without --omit=optional (or --no-optional)`
      : `there is no foreach-ls binary for ${platform} on npm: build one with \`cargo install foreach-ls\``;
  console.error(`foreach-ls: cannot run on ${platform}: ${why}.`);
  process.exit(1);
}

// `serve` speaks LSP over these streams, so they are the terminal's or the editor's own, not copies.
const result = spawnSync(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
if (result.error) {
  console.error(`foreach-ls: cannot start ${binary}: ${result.error.message}`);
  process.exit(1);
}
if (result.signal) {
  // Ended by a signal: end the same way, so that the caller sees it.
  process.kill(process.pid, result.signal);
}
process.exit(result.status ?? 1);
