// Entry point: start the client, restart it when its command or settings change, tell the user how to install the
// server when it is missing.

import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';

import { initializationOptions } from './bootstrap';
import { createClient, readSettings, resolveCommand } from './client';

let client: LanguageClient | undefined;
/** Where the extension is installed: a platform-specific .vsix has the server under `server/` there. */
let extensionDir = '';

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionDir = context.extensionPath;
  const output = vscode.window.createOutputChannel('foreach-ls');
  context.subscriptions.push(output);
  context.subscriptions.push(
    vscode.commands.registerCommand('foreachLs.restartServer', () => restart(output)),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('foreachLs.path')) {
        await restart(output);
      } else if (e.affectsConfiguration('foreachLs')) {
        await sendSettings();
      }
    }),
    // A new folder may have settings of its own.
    vscode.workspace.onDidChangeWorkspaceFolders(sendSettings),
  );
  await start(output);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

/** The server re-reads the workspace (or only re-filters, for severities) on didChangeConfiguration. */
async function sendSettings(): Promise<void> {
  await client?.sendNotification('workspace/didChangeConfiguration', {
    settings: { foreachLs: initializationOptions(readSettings()) },
  });
}

async function start(output: vscode.OutputChannel): Promise<void> {
  const settings = readSettings();
  const command = resolveCommand(settings, extensionDir);
  if ('error' in command) {
    output.appendLine(command.error);
    const choice = await vscode.window.showErrorMessage(command.error, 'Open Settings');
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'foreachLs.path');
    }
    return;
  }
  output.appendLine(`starting ${command.command} ${command.args.join(' ')}`);
  client = createClient(command, settings, output);
  await client.start();
}

async function restart(output: vscode.OutputChannel): Promise<void> {
  await deactivate();
  await start(output);
}
