// Builds the LanguageClient from the settings: everything it decides comes from bootstrap.ts, so the Node tests
// exercise the same decisions against the real server.

import * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

import {
  type ServerCommand,
  type Settings,
  defaultSettings,
  documentSelector,
  initializationOptions,
  serverCommand,
  watchedFiles,
} from './bootstrap';

/** The client id: vscode-languageclient reads `foreachLs.trace.server` from it. */
export const clientId = 'foreachLs';

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration('foreachLs');
  return {
    path: c.get<string>('path', defaultSettings.path),
    varFiles: c.get<string[]>('varFiles', defaultSettings.varFiles),
    variables: c.get<Record<string, string>>('variables', defaultSettings.variables),
    workspace: c.get<string>('workspace', defaultSettings.workspace),
    severity: c.get<Record<string, string>>('severity', defaultSettings.severity),
    exclude: c.get<string[]>('exclude', defaultSettings.exclude),
  };
}

export function resolveCommand(settings: Settings): ServerCommand | { error: string } {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  return serverCommand(settings, process.env.PATH, folder);
}

export function createClient(command: ServerCommand, settings: Settings, output: vscode.OutputChannel): LanguageClient {
  const serverOptions: ServerOptions = { command: command.command, args: command.args };
  const clientOptions: LanguageClientOptions = {
    documentSelector,
    initializationOptions: initializationOptions(settings),
    outputChannel: output,
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher(watchedFiles),
    },
  };
  return new LanguageClient(clientId, 'foreach-ls', serverOptions, clientOptions);
}
