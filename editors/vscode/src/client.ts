// Builds the LanguageClient from the settings: everything it decides comes from bootstrap.ts, so the Node tests
// exercise the same decisions against the real server.

import * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

import {
  type FolderSettings,
  type ServerCommand,
  type Settings,
  type StateSetting,
  bundledServer,
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
  const varFiles = c.get<string[]>('varFiles', defaultSettings.varFiles);
  const variables = c.get<Record<string, string>>('variables', defaultSettings.variables);
  const state = c.get<StateSetting>('state', defaultSettings.state);
  return {
    path: c.get<string>('path', defaultSettings.path),
    varFiles,
    variables,
    workspace: c.get<string>('workspace', defaultSettings.workspace),
    severity: c.get<Record<string, string>>('severity', defaultSettings.severity),
    exclude: c.get<string[]>('exclude', defaultSettings.exclude),
    state,
    folders: folderSettings({ varFiles, variables, state }),
  };
}

/** The folders whose own `varFiles`/`variables`/`state` (folder settings, resource scope) differ from the window's. */
function folderSettings(window: FolderSettings): Record<string, FolderSettings> {
  const folders: Record<string, FolderSettings> = {};
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const c = vscode.workspace.getConfiguration('foreachLs', folder.uri);
    const own: FolderSettings = {
      varFiles: c.get<string[]>('varFiles', window.varFiles),
      variables: c.get<Record<string, string>>('variables', window.variables),
      state: c.get<StateSetting>('state', window.state),
    };
    if (JSON.stringify(own) !== JSON.stringify(window)) {
      folders[folder.uri.toString()] = own;
    }
  }
  return folders;
}

export function resolveCommand(settings: Settings, extensionDir: string): ServerCommand | { error: string } {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  return serverCommand(settings, process.env.PATH, folder, bundledServer(extensionDir));
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
