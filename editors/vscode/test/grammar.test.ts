// The languages the extension contributes, so that a `.tf` file is not "Plain Text" without HashiCorp's or
// OpenTofu's extension: package.json declares them with the language configuration and the TextMate grammar, and
// the grammar tokenizes HCL as VS Code would (vscode-textmate with the Oniguruma regular expressions VS Code uses).
// Ctrl+/ and the highlighting in a real VS Code are checked by the end-to-end test (e2e/e2e.mjs).

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import * as oniguruma from 'vscode-oniguruma';
import * as textmate from 'vscode-textmate';

import { documentSelector } from '../src/bootstrap';

const root = path.resolve(__dirname, '../..');

interface Language {
  id: string;
  extensions?: string[];
  configuration?: string;
}
interface Manifest {
  activationEvents: string[];
  contributes: {
    languages: Language[];
    grammars: { language: string; scopeName: string; path: string }[];
  };
}
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const grammarFile = path.join(root, 'syntaxes/hcl.tmLanguage.json');

void test('package.json contributes the languages the client attaches to, each with the configuration and grammar', () => {
  const ids = manifest.contributes.languages.map((l) => l.id);
  const attached = documentSelector.flatMap((s) => ('language' in s ? [s.language] : []));
  for (const id of attached) {
    assert.ok(ids.includes(id), `${id} is contributed`);
  }
  const hcl = manifest.contributes.languages.filter((l) => l.id !== 'json');
  for (const l of hcl) {
    assert.equal(l.configuration, './language-configuration.json', l.id);
    assert.ok(
      manifest.contributes.grammars.some((g) => g.language === l.id && g.path === './syntaxes/hcl.tmLanguage.json'),
      `${l.id} has the grammar`,
    );
    assert.ok(manifest.activationEvents.includes(`onLanguage:${l.id}`), `${l.id} activates the extension`);
  }
  const byExtension = (ext: string): string | undefined =>
    manifest.contributes.languages.find((l) => l.extensions?.includes(ext))?.id;
  // The ids HashiCorp's and OpenTofu's extensions use for the same files, so both can be installed.
  assert.equal(byExtension('.tf'), 'terraform');
  assert.equal(byExtension('.tfvars'), 'terraform-vars');
  assert.equal(byExtension('.tftest.hcl'), 'terraform-test');
  assert.equal(byExtension('.tofu'), 'opentofu');
  assert.equal(byExtension('.tofutest.hcl'), 'opentofu-test');
  // JSON forms stay JSON (HashiCorp's server would read them as HCL if they were `terraform`).
  for (const ext of ['.tf.json', '.tofu.json', '.tfvars.json']) {
    assert.equal(byExtension(ext), 'json', ext);
  }
  // What `vsce package` keeps.
  const ignore = fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8');
  assert.ok(ignore.includes('!language-configuration.json') && ignore.includes('!syntaxes/hcl.tmLanguage.json'));
});

void test('the language configuration comments with #, pairs brackets and quotes, indents after an opening brace', () => {
  const config = JSON.parse(fs.readFileSync(path.join(root, 'language-configuration.json'), 'utf8')) as {
    comments: { lineComment: string; blockComment: string[] };
    brackets: string[][];
    autoClosingPairs: { open: string; close: string }[];
    surroundingPairs: string[][];
    indentationRules: { increaseIndentPattern: string; decreaseIndentPattern: string };
    wordPattern: string;
  };
  assert.deepEqual(config.comments, { lineComment: '#', blockComment: ['/*', '*/'] });
  assert.deepEqual(config.brackets, [['{', '}'], ['[', ']'], ['(', ')']]);
  assert.deepEqual(
    config.autoClosingPairs.map((p) => p.open),
    ['{', '[', '(', '"', '/*'],
  );
  assert.ok(config.surroundingPairs.some(([open]) => open === '"'));
  const increase = new RegExp(config.indentationRules.increaseIndentPattern);
  const decrease = new RegExp(config.indentationRules.decreaseIndentPattern);
  for (const line of ['resource "a" "b" {', '  tags = {', '  list = [', '  x = merge(']) {
    assert.ok(increase.test(line), line);
  }
  for (const line of ['  bucket = "b"', '  tags = { a = 1 }', '  s = "{"']) {
    assert.ok(!increase.test(line), line);
  }
  assert.ok(decrease.test('  }') && decrease.test(']') && !decrease.test('  x = 1'));
  // Names with dashes are one word (double-click, F2's default range).
  const word = new RegExp(config.wordPattern);
  assert.equal(word.exec('aws_s3-bucket.x')?.[0], 'aws_s3-bucket');
});

async function tokenize(text: string): Promise<{ text: string; scopes: string[] }[][]> {
  const wasm = fs.readFileSync(path.join(root, 'node_modules/vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: (scopeName: string) =>
      Promise.resolve(
        scopeName === 'source.hcl.foreach-ls'
          ? textmate.parseRawGrammar(fs.readFileSync(grammarFile, 'utf8'), grammarFile)
          : null,
      ),
  });
  const grammar = await registry.loadGrammar('source.hcl.foreach-ls');
  assert.ok(grammar !== null);
  let state = textmate.INITIAL;
  return text.split('\n').map((line) => {
    const r = grammar.tokenizeLine(line, state);
    state = r.ruleStack;
    return r.tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes }));
  });
}

void test('the grammar tokenizes HCL: comments, blocks, arguments, strings and templates, heredocs, expressions', async () => {
  const text = [
    '# a comment',
    'resource "aws_s3_bucket" "logs" {',
    '  provider = aws.by_region["use1"] // why',
    '  bucket   = "logs-${var.env}-%{ if each.key != "" }x%{ endif }"',
    '  count    = length(local.names) > 0 ? 1 : 0',
    '  policy   = <<-EOT',
    '    {"key": "${each.key}"} # not a comment',
    '  EOT',
    '  /* a block',
    '     comment */',
    '  lifecycle {',
    '    tags = { for k, v in var.tags : k => v if v != null }',
    '  }',
    '}',
  ].join('\n');
  const lines = await tokenize(text);
  /** The innermost scope of the token where `needle` starts on line `n` (its `nth` occurrence), and all of them. */
  const scopes = (n: number, needle: string, nth = 0): string[] => {
    const line = text.split('\n')[n];
    let at = -1;
    for (let i = 0; i <= nth; i++) {
      at = line.indexOf(needle, at + 1);
    }
    assert.ok(at >= 0, `${needle} on line ${String(n)}`);
    let pos = 0;
    for (const t of lines[n]) {
      if (at < pos + t.text.length) {
        return t.scopes;
      }
      pos += t.text.length;
    }
    assert.fail(`no token at ${needle}`);
  };
  const has = (n: number, needle: string, scope: string, nth = 0): void => {
    const s = scopes(n, needle, nth);
    assert.ok(s.includes(scope), `${needle} (line ${String(n)}): ${scope} in ${s.join(' ')}`);
  };
  has(0, 'a comment', 'comment.line.number-sign.hcl');
  has(1, 'resource', 'entity.name.type.block.hcl');
  has(1, '"aws_s3_bucket"', 'string.quoted.double.hcl');
  has(2, 'provider', 'variable.other.property.hcl');
  has(2, '"use1"', 'string.quoted.double.hcl');
  has(2, 'why', 'comment.line.double-slash.hcl');
  has(3, 'var', 'variable.language.hcl');
  has(3, 'var', 'meta.interpolation.hcl');
  has(3, 'if', 'keyword.control.hcl');
  has(3, '-', 'string.quoted.double.hcl', 1);
  has(4, 'length', 'support.function.hcl');
  has(4, 'local', 'variable.language.hcl');
  has(4, '0', 'constant.numeric.hcl');
  has(4, '?', 'keyword.operator.hcl');
  has(5, 'EOT', 'keyword.control.heredoc-token.hcl');
  has(6, '"key"', 'string.unquoted.heredoc.hcl');
  has(6, 'not a comment', 'string.unquoted.heredoc.hcl');
  has(6, 'each', 'meta.interpolation.hcl');
  has(7, 'EOT', 'keyword.control.heredoc-token.hcl');
  has(8, 'a block', 'comment.block.hcl');
  has(9, 'comment', 'comment.block.hcl');
  has(10, 'lifecycle', 'entity.name.type.block.hcl');
  has(11, 'for', 'keyword.control.hcl');
  has(11, 'null', 'constant.language.hcl');
  has(11, '=>', 'keyword.operator.hcl');
  has(11, 'tags', 'variable.other.property.hcl');
  // After the heredoc and the block comment, the last brace closes the resource at the top level again.
  assert.deepEqual(scopes(13, '}'), ['source.hcl.foreach-ls', 'punctuation.section.braces.end.hcl']);
});
