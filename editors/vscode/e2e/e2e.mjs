// The extension in a real VS Code: code-server (VS Code in the browser) with the extension's .vsix installed and
// foreach-ls configured, driven in Chromium by Playwright the way a user would, reading what the page shows.
// Started by server/foreach-ls/tests/editor_vscode_e2e.rs, which installs the tools, starts code-server on the
// loopback interface and checks the exit status; to run it by hand, see docs/editors.md.
//
// Environment: E2E_URL (code-server), E2E_WORKSPACE (a copy of e2e/workspace, opened as the folder),
// E2E_SCREENSHOTS (a directory), E2E_CHROMIUM (the browser), E2E_TOOLS (the directory whose node_modules holds
// playwright-core), E2E_FMT_EXPECTED (what `foreach-ls fmt` makes of messy.tf), E2E_TIMEOUT_MS (for everything),
// E2E_SETTINGS (the user settings file, which the last step changes) and E2E_NOT_FOUND=1 when no foreach-ls is on
// the PATH of a login shell (the last step then expects the extension to say it found none).
// Every step saves a screenshot NN-step.png; a failed step saves NN-step-FAILED.png, says why, and exits 1.

import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

const env = (name) => {
  const v = process.env[name];
  if (v === undefined || v === '') {
    throw new Error(`${name} is not set`);
  }
  return v;
};
const url = env('E2E_URL');
const ws = env('E2E_WORKSPACE');
const shots = env('E2E_SCREENSHOTS');
const fmtExpected = fs.readFileSync(env('E2E_FMT_EXPECTED'), 'utf8');
const { chromium } = createRequire(path.join(env('E2E_TOOLS'), 'package.json'))('playwright-core');
const deadline = Date.now() + Number(process.env.E2E_TIMEOUT_MS ?? 180_000);
/** How long one wait may take: 30 s, less when the whole run is nearly out of time. */
const waitMs = () => Math.max(1_000, Math.min(30_000, deadline - Date.now()));

const read = (file) => fs.readFileSync(path.join(ws, file), 'utf8');
const original = { main: read('main.tf'), queues: read('queues.tf'), messy: read('messy.tf') };

fs.mkdirSync(shots, { recursive: true });
const browser = await chromium.launch({
  executablePath: env('E2E_CHROMIUM'),
  // As root on a machine with no network but loopback: no sandbox, no background connections.
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
let shot = 0;

/** Runs one step; a screenshot after it, and on failure a screenshot, the reason, and exit status 1. */
async function step(name, fn) {
  const start = Date.now();
  const n = String(++shot).padStart(2, '0');
  try {
    await fn();
  } catch (e) {
    const file = path.join(shots, `${n}-${name}-FAILED.png`);
    await page.screenshot({ path: file }).catch(() => {});
    console.error(`not ok - ${name}: ${e instanceof Error ? e.message : String(e)}\n  screenshot: ${file}`);
    await browser.close();
    process.exit(1);
  }
  const file = path.join(shots, `${n}-${name}.png`);
  await page.screenshot({ path: file });
  console.log(`ok - ${name} (${Date.now() - start} ms) ${file}`);
}

/** A screenshot in the middle of the current step (a menu or widget that the end of the step closes). */
async function snap(label, options = {}) {
  const file = path.join(shots, `${String(shot).padStart(2, '0')}-${label}.png`);
  await page.screenshot({ path: file, ...options });
  console.log(`   ${file}`);
}

/** Polls `get` until `pred` holds of its value; fails saying `what` and the last value. */
async function until(what, get, pred = (v) => Boolean(v)) {
  const end = Date.now() + waitMs();
  let last;
  for (;;) {
    last = await get();
    if (pred(last)) {
      return last;
    }
    if (Date.now() > end) {
      throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
    }
    await page.waitForTimeout(100);
  }
}

/**
 * Presses `key` until `widget` shows: a key press can go missing while the editor is still taking the focus back or
 * is busy, and a widget with nothing to show yet (no code actions so far) closes by itself.
 */
async function pressUntil(key, widget, what) {
  const end = Date.now() + waitMs();
  for (;;) {
    await page.keyboard.press(key);
    try {
      await widget.waitFor({ timeout: 3_000 });
      return;
    } catch (e) {
      if (Date.now() > end) {
        throw new Error(`${what} did not show after ${key}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    await page.keyboard.press('Escape');
  }
}

/** Runs a command from the command palette by its title. */
async function command(title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: waitMs() });
  await input.fill(`>${title}`);
  await page
    .locator('.quick-input-widget .monaco-list-row.focused', { hasText: title })
    .first()
    .waitFor({ timeout: waitMs() });
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: waitMs() });
}

/** Opens a file of the workspace with Quick Open and waits for its editor to be the active one. */
async function open(file) {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: waitMs() });
  await input.fill(file);
  await page
    .locator('.quick-input-widget .monaco-list-row.focused', { hasText: file })
    .first()
    .waitFor({ timeout: waitMs() });
  await page.keyboard.press('Enter');
  await page.locator('.tab.active', { hasText: file }).waitFor({ timeout: waitMs() });
  await page.locator('.editor-instance .monaco-editor .view-lines').first().waitFor({ timeout: waitMs() });
}

/** Moves the cursor to a 1-based line and column (Go to Line). */
async function goTo(line, column) {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: waitMs() });
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: waitMs() });
}

/** The 1-based line and column where `needle` starts in `text` (its first occurrence), plus `offset` columns. */
function position(text, needle, offset = 0) {
  const at = text.indexOf(needle);
  if (at < 0) {
    throw new Error(`${needle} is not in the file`);
  }
  const before = text.slice(0, at).split('\n');
  return [before.length, before[before.length - 1].length + 1 + offset];
}

/** The text of the editor's rendered lines that contain `needle` (inlay hints included). */
const linesWith = (needle) =>
  page.evaluate(
    (needle) =>
      [...document.querySelectorAll('.editor-instance .monaco-editor .view-lines .view-line')]
        .map((l) => l.textContent.replace(/\u00a0/g, ' '))
        .filter((t) => t.includes(needle)),
    needle,
  );

/** The screen rectangle of the first rendered occurrence of `needle` in the active editor. */
const rectOf = (needle) =>
  page.evaluate((needle) => {
    for (const line of document.querySelectorAll('.editor-instance .monaco-editor .view-lines .view-line')) {
      const at = line.textContent.replace(/\u00a0/g, ' ').indexOf(needle);
      if (at < 0) {
        continue;
      }
      const range = document.createRange();
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      let pos = 0;
      let started = false;
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const len = node.textContent.length;
        if (!started && at < pos + len) {
          range.setStart(node, at - pos);
          started = true;
        }
        if (started && at + needle.length <= pos + len) {
          range.setEnd(node, at + needle.length - pos);
          break;
        }
        pos += len;
      }
      const r = range.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }
    return null;
  }, needle);

/** The rectangles of the error squiggles in the active editor. */
const squiggles = () =>
  page.evaluate(() =>
    [...document.querySelectorAll('.editor-instance .monaco-editor .squiggly-error')].map((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );

const wrongKey = '"usw1"';

await step('workbench', async () => {
  await page.goto(`${url}?folder=${encodeURIComponent(ws)}`);
  await page.locator('.monaco-workbench .explorer-folders-view').waitFor({ timeout: waitMs() });
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'main.tf' }).waitFor({ timeout: waitMs() });
});

await step('language-and-grammar', async () => {
  await open('main.tf');
  // The extension's language, not "Plain Text", and its grammar: a comment is coloured unlike the code.
  const mode = page.locator('#status\\.editor\\.mode');
  await until('the language mode Terraform', () => mode.textContent(), (t) => t?.trim() === 'Terraform');
  const classes = await until(
    'comment tokens coloured by the grammar',
    () =>
      page.evaluate(() => {
        const lines = [...document.querySelectorAll('.editor-instance .monaco-editor .view-lines .view-line')];
        const comment = lines.find((l) => l.textContent.replace(/\u00a0/g, ' ').startsWith('# One wrong instance key'));
        const code = lines.find((l) => l.textContent.includes('alias'));
        return { comment: comment?.firstElementChild?.firstElementChild?.className, code: code?.innerHTML };
      }),
    (v) => v.comment !== undefined && v.code !== undefined && !v.code.includes(v.comment),
  );
  if (classes.comment === 'mtk1') {
    throw new Error('the comment has the default colour');
  }
});

await step('squiggle-on-the-wrong-key', async () => {
  const found = await until('an error squiggle', squiggles, (s) => s.length > 0);
  const key = await rectOf(wrongKey);
  if (key === null) {
    throw new Error(`${wrongKey} is not shown`);
  }
  // Under the key: the same columns (within a pixel or two) and the key's line.
  const under = found.filter(
    (s) => Math.abs(s.x - key.x) < 3 && Math.abs(s.x + s.width - (key.x + key.width)) < 3 && s.y >= key.y - 2 &&
      s.y <= key.y + key.height + 2,
  );
  if (under.length !== 1 || found.length !== 1) {
    throw new Error(`expected one squiggle under ${JSON.stringify(key)}, got ${JSON.stringify(found)}`);
  }
});

await step('inlay-hints-only-after-computed-keys', async () => {
  await goTo(...position(read('main.tf'), 'aws.by_region[local.primary]'));
  await until(
    'a hint after [local.primary]',
    () => linesWith('aws.by_region[local.primary]'),
    (l) => l.length === 1 && l[0].includes('→ "euw1"'),
  );
  for (const literal of ['aws.by_region["use1"]', `aws.by_region[${wrongKey}]`]) {
    const [line] = await linesWith(literal);
    if (line === undefined || line.includes('→')) {
      throw new Error(`a literal key has a hint: ${JSON.stringify(line)}`);
    }
  }
});

await step('hover-on-the-wrong-key', async () => {
  const key = await rectOf(wrongKey);
  await page.mouse.move(key.x + key.width / 2, key.y + key.height / 2);
  const hover = page.locator('.monaco-hover:not(.hidden)').first();
  const text = await until('the hover', () => hover.textContent().catch(() => ''), (t) => t.includes('names no instance'));
  // The picture in the README and docs/editors.md: the editor with the hover, without the side bar.
  const editor = await page.locator('.editor-instance').first().boundingBox();
  const box = await hover.boundingBox();
  if (editor !== null && box !== null) {
    const bottom = Math.min(editor.y + editor.height, box.y + box.height + 16);
    await snap('readme', { clip: { x: editor.x, y: editor.y, width: editor.width, height: bottom - editor.y } });
  }
  for (const part of ['"usw1" names no instance', 'aws.by_region', '"euw1"', '"use1"', 'region = "us-east-1"', 'region = "eu-west-1"']) {
    if (!text.includes(part)) {
      throw new Error(`the hover lacks ${part}: ${text}`);
    }
  }
});

await step('problems-panel', async () => {
  await page.mouse.move(5, 700);
  await page.keyboard.press('Escape');
  await command('View: Focus Problems');
  const rows = page.locator('.markers-panel .monaco-list-row');
  const text = await until(
    'the problem and its related locations',
    async () => (await rows.allTextContents()).join('\n'),
    (t) => t.includes('the keys of `aws.by_region` are written here'),
  );
  for (const part of [
    'no provider instance `usw1` in `aws.by_region`',
    'unknown-provider-instance',
    'the instances of `aws.by_region` come from here',
    'the keys of `aws.by_region` are written here',
  ]) {
    if (!text.includes(part)) {
      throw new Error(`the Problems panel lacks ${part}: ${text}`);
    }
  }
});

await step('completion-of-instance-keys', async () => {
  await command('View: Hide Panel');
  const [line, column] = position(read('main.tf'), 'aws.by_region["use1"]', 'aws.by_region["use1'.length);
  await goTo(line, column);
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Backspace');
  }
  const rows = page.locator('.suggest-widget.visible .monaco-list-row');
  await pressUntil('Control+Space', rows.first(), 'the completion list');
  const labels = await until(
    'completion items',
    async () => (await rows.allTextContents()).join(' | '),
    (t) => t.includes('use1') && t.includes('euw1'),
  );
  await snap('completion-items');
  if (labels.includes('usw1')) {
    throw new Error(`completion offers a key that names no instance: ${labels}`);
  }
  // Accept use1: the line is as it was.
  await page.keyboard.type('use');
  await until('use1 first', async () => (await rows.first().textContent()) ?? '', (t) => t.includes('use1'));
  await page.keyboard.press('Enter');
  await until('the key back in the file', () => read('main.tf'), (t) => t === original.main);
});

await step('quick-fix', async () => {
  const [line, column] = position(read('main.tf'), wrongKey, 2);
  await goTo(line, column);
  const title = 'Move this resource to the provider configuration `aws.by_region["use1"]`';
  const item = page.locator('.action-widget .monaco-list-row', { hasText: title }).first();
  await pressUntil('Control+.', item, 'the quick fix');
  await snap('quick-fix-menu');
  await item.click();
  // As the action says, and nothing else (the file is saved after a short delay: files.autoSave).
  const expected = original.main.replace(`aws.by_region[${wrongKey}]`, 'aws.by_region["use1"]');
  await until('the fixed file on disk', () => read('main.tf'), (t) => t === expected);
  await until('no error squiggle', squiggles, (s) => s.length === 0);
});

await step('format-document', async () => {
  await open('messy.tf');
  await command('Format Document');
  await until("foreach-ls fmt's output on disk", () => read('messy.tf'), (t) => t === fmtExpected);
});

await step('toggle-line-comment', async () => {
  await goTo(1, 1);
  await page.keyboard.press('Control+/');
  const first = fmtExpected.split('\n')[0];
  await until('a commented first line', () => read('messy.tf'), (t) => t.split('\n')[0] === `# ${first}`);
  await page.keyboard.press('Control+/');
  await until('the first line back', () => read('messy.tf'), (t) => t === fmtExpected);
});

await step('rename-provider-alias', async () => {
  await open('main.tf');
  const [line, column] = position(read('main.tf'), '"by_region"', 3);
  await goTo(line, column);
  const input = page.locator('.rename-box input');
  await pressUntil('F2', input, 'the rename box');
  await input.fill('per_region');
  await page.keyboard.press('Enter');
  await page.locator('.rename-box input').waitFor({ state: 'hidden', timeout: waitMs() });
  // Files the rename edited without opening them are saved with the others.
  await command('File: Save All');
  const renamed = (t) => t.replaceAll('aws.by_region[', 'aws.per_region[').replace('"by_region"', '"per_region"');
  const want = {
    'main.tf': renamed(original.main.replace(`aws.by_region[${wrongKey}]`, 'aws.by_region["use1"]')),
    'queues.tf': renamed(original.queues),
    'messy.tf': renamed(fmtExpected),
  };
  await until(
    'every reference renamed on disk',
    () => Object.fromEntries(Object.keys(want).map((f) => [f, read(f)])),
    (got) => Object.entries(want).every(([f, t]) => got[f] === t),
  );
  await until('no error squiggle', squiggles, (s) => s.length === 0);
});

await step('server-not-found', async () => {
  // Without `foreachLs.path` the extension looks on the PATH it was given (the login shell's), then in ~/.cargo/bin
  // and ~/.local/bin; the test's home has neither, so the message must say where it looked and name the setting.
  if (process.env.E2E_NOT_FOUND !== '1') {
    console.log('   (skipped: a foreach-ls is on the login shell\'s PATH here)');
    return;
  }
  // As a user would: delete the line in the user settings (JSON) and save. VS Code here watches no files (it runs
  // without its native modules), so the settings are changed through its editor, not on disk.
  const file = env('E2E_SETTINGS');
  await command('Preferences: Open User Settings (JSON)');
  // An editor of its own over the workbench, not a tab.
  await page.locator('.monaco-editor .view-line', { hasText: '"foreachLs.path"' }).waitFor({ timeout: waitMs() });
  await goTo(...position(fs.readFileSync(file, 'utf8'), '"foreachLs.path"'));
  await page.keyboard.press('Control+Shift+K');
  await page.keyboard.press('Control+S');
  await until('the setting gone from the file', () => fs.readFileSync(file, 'utf8'), (t) => !t.includes('foreachLs.path'));
  const toast = page.locator('.notification-toast', { hasText: 'foreach-ls was not found' }).first();
  await toast.waitFor({ timeout: waitMs() });
  const text = (await toast.textContent()) ?? '';
  for (const part of ['not found on PATH (/', '.cargo/bin', '.local/bin', 'foreachLs.path', 'login shell', 'Open Settings']) {
    if (!text.includes(part)) {
      throw new Error(`the message lacks ${part}: ${text}`);
    }
  }
});

await browser.close();
console.log(`all steps passed; screenshots in ${shots}`);
