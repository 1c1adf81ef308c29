// Bundles the extension (vscode is provided by the editor) or, with --tests, the Node tests.
import * as esbuild from 'esbuild';

const tests = process.argv.includes('--tests');
await esbuild.build({
  entryPoints: tests ? ['test/startup.test.ts', 'test/grammar.test.ts'] : ['src/extension.ts'],
  outdir: tests ? 'out/test' : 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: tests,
  minify: !tests,
  external: ['vscode'],
  logLevel: 'warning',
});
