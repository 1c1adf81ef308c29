// Drives the extension's start-up code (src/bootstrap.ts) against the real `foreach-ls` binary with the npm LSP
// client libraries, since VS Code itself cannot run here: the command it resolves is spawned, the
// initializationOptions it builds are sent, and every setting it offers is checked to change what the server says.
// Run by server/foreach-ls/tests/editor_vscode.rs with the binary's directory first on PATH, and by
// scripts/package-vsix.sh --check with FOREACH_LS_EXTENSION set to an unpacked platform .vsix's extension directory:
// then the server is the one bundled inside it, found as the extension finds it, with nothing looked up on PATH.

import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { minimatch } from 'minimatch';
import {
  type Diagnostic,
  DidChangeConfigurationNotification,
  DidOpenTextDocumentNotification,
  InitializeRequest,
  InitializedNotification,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  createProtocolConnection,
} from 'vscode-languageserver-protocol/node';

import {
  type Settings,
  bundledServer,
  defaultSettings,
  documentSelector,
  initializationOptions,
  serverCommand,
} from '../src/bootstrap';

const repo = path.resolve(__dirname, '../../../..');
const fixture = path.join(repo, 'editors/fixtures/multi-region');
const timeoutMs = 30_000;
/** The fixture's regions plus the one its wrong key names. */
const allRegions = '{ use1 = "us-east-1", euw1 = "eu-west-1", apse2 = "ap-southeast-2" }';

/** A state with a bucket created through a provider instance the fixture no longer has. */
const pulledState = JSON.stringify({
  version: 4,
  resources: [
    {
      mode: 'managed',
      type: 'aws_s3_bucket',
      name: 'old',
      instances: [{ provider: 'provider["registry.opentofu.org/hashicorp/aws"].by_region["apne1"]' }],
    },
  ],
});

/** The unpacked .vsix's extension directory when testing a platform package, else undefined (PATH is used). */
const extensionDir = process.env.FOREACH_LS_EXTENSION;
const bundled = extensionDir === undefined ? undefined : bundledServer(extensionDir);
/** Where the extension looks the server up: with a bundled server, nothing may come from PATH. */
const envPath = extensionDir === undefined ? process.env.PATH : '/nonexistent';

let ws: string;
let mainUri: string;
let server: ChildProcess;
let connection: ProtocolConnection;
const latest = new Map<string, Diagnostic[]>();
const waiters: (() => void)[] = [];
let exited: string | undefined;

function wakeAll(): void {
  waiters.splice(0).forEach((wake) => {
    wake();
  });
}

before(async () => {
  ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'foreach-ls-vscode-')));
  fs.cpSync(fixture, ws, { recursive: true });
  fs.writeFileSync(path.join(ws, 'more.tfvars'), `regions = ${allRegions}\n`);
  fs.writeFileSync(path.join(ws, 'pulled.tfstate'), pulledState);
  mainUri = pathToFileURL(path.join(ws, 'main.tf')).toString();

  if (extensionDir !== undefined) {
    assert.ok(bundled !== undefined, `no executable server/foreach-ls in ${extensionDir}`);
  }
  const command = serverCommand(defaultSettings, envPath, ws, bundled);
  assert.ok(!('error' in command), `foreach-ls must be on PATH for this test: ${JSON.stringify(command)}`);
  if (bundled !== undefined) {
    assert.equal(command.command, bundled);
  }
  server = spawn(command.command, command.args, { stdio: ['pipe', 'pipe', 'inherit'] });
  if (server.stdout === null || server.stdin === null) {
    throw new Error('no pipes to the server');
  }
  connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
  server.on('exit', (code, signal) => {
    exited = `the server exited (${String(code ?? signal)})`;
    wakeAll();
  });
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
    latest.set(p.uri, p.diagnostics);
    wakeAll();
  });
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- required by the 3.17 types; the server reads workspaceFolders
    rootUri: pathToFileURL(ws).toString(),
    workspaceFolders: [{ uri: pathToFileURL(ws).toString(), name: 'ws' }],
    capabilities: { textDocument: { publishDiagnostics: { relatedInformation: true } } },
    initializationOptions: initializationOptions(defaultSettings),
  });
  await connection.sendNotification(InitializedNotification.type, {});
  await connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: {
      uri: mainUri,
      languageId: 'terraform',
      version: 0,
      text: fs.readFileSync(path.join(ws, 'main.tf'), 'utf8'),
    },
  });
});

after(() => {
  connection.dispose();
  server.removeAllListeners('exit');
  server.kill();
  fs.rmSync(ws, { recursive: true, force: true });
});

/** Waits until the diagnostics last published for main.tf satisfy `pred`, and returns them. */
async function diagnostics(what: string, pred: (ds: Diagnostic[]) => boolean): Promise<Diagnostic[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ds = latest.get(mainUri);
    if (ds !== undefined && pred(ds)) {
      return ds;
    }
    const left = deadline - Date.now();
    if (exited !== undefined) {
      assert.fail(`${exited} while waiting for ${what}`);
    }
    if (left <= 0) {
      assert.fail(`timed out waiting for ${what}; last diagnostics: ${JSON.stringify(ds)}`);
    }
    await new Promise<void>((resolve) => {
      // Cleared when woken: a pending timer would keep Node alive after the tests.
      const timer = setTimeout(resolve, left);
      waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

const unknownInstance = (ds: Diagnostic[]): Diagnostic | undefined =>
  ds.find((d) => d.code === 'unknown-provider-instance');

async function configure(changes: Partial<Settings>): Promise<void> {
  // What extension.ts sends when a `foreachLs.*` setting changes.
  await connection.sendNotification(DidChangeConfigurationNotification.type, {
    settings: { foreachLs: initializationOptions({ ...defaultSettings, ...changes }) },
  });
}

void test('the wrong instance key is reported on its line', async () => {
  const ds = await diagnostics('unknown-provider-instance', (d) => unknownInstance(d) !== undefined);
  const d = unknownInstance(ds);
  assert.ok(d);
  const lines = fs.readFileSync(path.join(ws, 'main.tf'), 'utf8').split('\n');
  assert.equal(d.range.start.line, lines.findIndex((l) => l.includes('aws.by_region["apse2"]')));
  assert.equal(d.severity, 1);
  assert.match(d.message, /apse2/);
});

void test('settings reach the server under the names it reads', async () => {
  await diagnostics('the initial error', (d) => unknownInstance(d) !== undefined);

  await configure({ variables: { regions: allRegions } });
  await diagnostics('variables to define apse2', (d) => d.length === 0);
  await configure({});
  await diagnostics('the error back without variables', (d) => unknownInstance(d) !== undefined);

  await configure({ varFiles: ['more.tfvars'] });
  await diagnostics('varFiles to define apse2', (d) => d.length === 0);
  await configure({});
  await diagnostics('the error back without varFiles', (d) => unknownInstance(d) !== undefined);

  await configure({ folders: { [pathToFileURL(ws).toString()]: { varFiles: ['more.tfvars'], variables: {}, state: '' } } });
  await diagnostics('the folder varFiles to define apse2', (d) => d.length === 0);
  await configure({});
  await diagnostics('the error back without folder settings', (d) => unknownInstance(d) !== undefined);

  const removed = (ds: Diagnostic[]): boolean => ds.some((d) => d.code === 'provider-instance-removed-with-resources');
  await configure({ state: 'pulled.tfstate' });
  await diagnostics('the state setting to read pulled.tfstate', removed);
  await configure({});
  await diagnostics('no state without the setting', (d) => !removed(d));

  await configure({ severity: { 'unknown-provider-instance': 'warning' } });
  await diagnostics('the severity override', (d) => unknownInstance(d)?.severity === 2);
  await configure({ severity: { 'unknown-provider-instance': 'off' } });
  await diagnostics('the code turned off', (d) => unknownInstance(d) === undefined);
});

void test('a missing binary names the PATH searched, the usual places and the setting', () => {
  const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'foreach-ls-home-')));
  try {
    const missing = serverCommand(defaultSettings, '/nonexistent', undefined, undefined, 'linux', home);
    assert.ok('error' in missing);
    for (const part of ['PATH (/nonexistent;', path.join(home, '.cargo/bin'), path.join(home, '.local/bin'), 'foreachLs.path']) {
      assert.ok(missing.error.includes(part), `${part} in: ${missing.error}`);
    }
    assert.match(missing.error, /cargo install/);
    const configured = serverCommand({ ...defaultSettings, path: 'bin/nope' }, process.env.PATH, ws);
    assert.ok('error' in configured);
    assert.match(configured.error, /foreachLs\.path/);
    assert.ok(configured.error.includes(path.join(ws, 'bin/nope')), configured.error);

    // Not on PATH, but where `pip install --user` or `cargo install` put it: found there, ~/.cargo/bin first.
    const install = (dir: string): string => {
      fs.mkdirSync(path.join(home, dir), { recursive: true });
      const file = path.join(home, dir, 'foreach-ls');
      fs.writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 });
      return file;
    };
    const local = install('.local/bin');
    assert.deepEqual(serverCommand(defaultSettings, '/nonexistent', undefined, undefined, 'linux', home), {
      command: local,
      args: ['serve'],
    });
    const cargo = install('.cargo/bin');
    assert.deepEqual(serverCommand(defaultSettings, '', undefined, undefined, 'linux', home), {
      command: cargo,
      args: ['serve'],
    });
    // PATH still comes first.
    const onPath = install('elsewhere');
    assert.deepEqual(serverCommand(defaultSettings, path.dirname(onPath), undefined, undefined, 'linux', home), {
      command: onPath,
      args: ['serve'],
    });
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

void test('foreachLs.path wins over PATH', () => {
  const found = serverCommand(defaultSettings, envPath, ws, bundled);
  assert.ok(!('error' in found));
  const explicit = serverCommand({ ...defaultSettings, path: found.command }, '/nonexistent', undefined);
  assert.deepEqual(explicit, { command: found.command, args: ['serve'] });
});

void test('a bundled server wins over foreachLs.path, which wins over PATH', () => {
  const ext = fs.mkdtempSync(path.join(os.tmpdir(), 'foreach-ls-ext-'));
  try {
    assert.equal(bundledServer(ext, 'linux'), undefined, 'no server/ in a platform-neutral package');
    fs.mkdirSync(path.join(ext, 'server'));
    const inside = path.join(ext, 'server', 'foreach-ls');
    // Written without the executable bit, as an unpacker may leave it: bundledServer restores it.
    fs.writeFileSync(inside, '#!/bin/sh\n', { mode: 0o644 });
    assert.equal(bundledServer(ext, 'linux'), inside);
    const onPath = serverCommand(defaultSettings, process.env.PATH, ws, bundledServer(ext, 'linux'));
    assert.deepEqual(onPath, { command: inside, args: ['serve'] });
    const other = path.join(ext, 'other');
    fs.writeFileSync(other, '#!/bin/sh\n', { mode: 0o755 });
    assert.deepEqual(serverCommand({ ...defaultSettings, path: other }, process.env.PATH, ws, inside), {
      command: inside,
      args: ['serve'],
    });
    assert.deepEqual(serverCommand({ ...defaultSettings, path: other }, process.env.PATH, ws, undefined), {
      command: other,
      args: ['serve'],
    });
    assert.equal(bundledServer(ext, 'win32'), undefined, 'Windows looks for foreach-ls.exe');
  } finally {
    fs.rmSync(ext, { recursive: true, force: true });
  }
});

void test('the document selector covers every OpenTofu file kind and no other HCL', () => {
  const patterns = documentSelector.flatMap((s) => ('pattern' in s ? [s.pattern] : []));
  const matches = (file: string): boolean => patterns.some((p) => minimatch(file, p));
  for (const file of ['/w/main.tf', '/w/x.tofu', '/w/prod.tfvars', '/w/t/a.tftest.hcl', '/w/b.tofutest.hcl', '/w/m.tf.json']) {
    assert.ok(matches(file), file);
  }
  for (const file of ['/w/terragrunt.hcl', '/w/app.pkr.hcl', '/w/job.nomad']) {
    assert.ok(!matches(file), file);
  }
  const languages = documentSelector.flatMap((s) => ('language' in s ? [s.language] : []));
  assert.deepEqual(languages, ['terraform', 'terraform-vars', 'opentofu', 'opentofu-vars']);
});

void test('package.json offers exactly the settings the server reads', () => {
  // The server's names: the fields of `Config` in config.rs, in camelCase (serde's rename_all).
  const config = fs.readFileSync(path.join(repo, 'server/foreach-lsp/src/config.rs'), 'utf8');
  const struct = /pub struct Config \{([\s\S]*?)\n\}/.exec(config)?.[1] ?? '';
  const serverKeys = [...struct.matchAll(/pub (\w+):/g)].map((m) =>
    m[1].replace(/_(\w)/g, (_, c: string) => c.toUpperCase()),
  );
  // Tuning knobs for other clients and tests, deliberately not offered as VS Code settings.
  const notOffered = ['pullDiagnostics', 'debounceMs'];
  // Built from the folder-scoped values of varFiles, variables and state, not a setting of its own.
  const derived = ['folders'];
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, unknown> } };
  };
  const offered = Object.keys(manifest.contributes.configuration.properties)
    .map((k) => k.replace(/^foreachLs\./, ''))
    .filter((k) => k !== 'path' && k !== 'trace.server');
  assert.deepEqual([...offered, ...derived].sort(), serverKeys.filter((k) => !notOffered.includes(k)).sort());
  const sent = Object.keys(initializationOptions({ ...defaultSettings, workspace: 'prod' }));
  assert.deepEqual(sent.sort(), [...offered, ...derived].sort());
});
