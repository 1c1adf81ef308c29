// The extension's start-up decisions, free of the `vscode` module so that Node tests can drive them against the
// real server: which binary to run, what to send as initializationOptions, which documents to attach to.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The `foreachLs.*` settings the extension reads. */
export interface Settings {
  /** `foreachLs.path`: the binary; empty means `foreach-ls` on PATH. */
  path: string;
  varFiles: string[];
  variables: Record<string, string>;
  workspace: string;
  severity: Record<string, string>;
  exclude: string[];
  /** `foreachLs.state`: a state file for the folder's root module, or root directory -> state file; `''`: none. */
  state: StateSetting;
  /**
   * Per workspace folder (keyed by its URI): `foreachLs.varFiles`, `foreachLs.variables` and `foreachLs.state` where
   * a folder's own settings differ from the window's. The server applies them after the workspace-wide ones (a
   * folder's `state` replaces the window's).
   */
  folders: Record<string, FolderSettings>;
}

export interface FolderSettings {
  varFiles: string[];
  variables: Record<string, string>;
  state: StateSetting;
}

export type StateSetting = string | Record<string, string>;

export const defaultSettings: Settings = {
  path: '',
  varFiles: [],
  variables: {},
  workspace: '',
  severity: {},
  exclude: [],
  state: '',
  folders: {},
};

/**
 * The server's settings, named exactly as `server/foreach-lsp/src/config.rs` reads them (docs/lsp.md#settings).
 * Empty values are left out so that the server's defaults (`TF_WORKSPACE`, ...) apply.
 */
export function initializationOptions(s: Settings): Record<string, unknown> {
  const options: Record<string, unknown> = {
    varFiles: s.varFiles,
    variables: s.variables,
    severity: s.severity,
    exclude: s.exclude,
    state: s.state,
    folders: s.folders,
  };
  if (s.workspace !== '') {
    options.workspace = s.workspace;
  }
  return options;
}

/**
 * Where the extension attaches: the language ids it contributes, which are those of the HashiCorp and OpenTofu
 * extensions, *and* file patterns, so it works alongside either (or neither) whichever language a file ends up
 * with (`.tf.json` files are JSON). The server decides what a file is from its name, so an HCL file that is not
 * OpenTofu's is left alone even if it matches a language id.
 */
export const documentSelector = [
  { language: 'terraform' },
  { language: 'terraform-vars' },
  { language: 'opentofu' },
  { language: 'opentofu-vars' },
  { scheme: 'file', pattern: '**/*.{tf,tofu,tfvars,tftest.hcl,tofutest.hcl}' },
  { scheme: 'file', pattern: '**/*.{tf,tofu,tfvars}.json' },
];

/**
 * Files whose changes on disk the server must hear about (it reads var files, other modules and local state files
 * itself; it registers watchers for the state files `foreachLs.state` names).
 */
export const watchedFiles = '**/*.{tf,tofu,tfvars,tf.json,tofu.json,tfvars.json,tfstate}';

export interface ServerCommand {
  command: string;
  args: string[];
}

export const installHint =
  'Set `foreachLs.path` (Settings > Extensions > foreach-ls) to the binary, or install it: the extension for your ' +
  'platform (its .vsix) brings it; else put the `foreach-ls` of a release archive on PATH, or run ' +
  '`cargo install foreach-ls`.';

/**
 * Where a user's own installs usually land when the PATH VS Code gives the extension host lacks them: VS Code (remote,
 * web, and desktop on Linux) starts it with the PATH of the user's login shell, not of the shell that launched it.
 */
export function usualPlaces(home: string | undefined, platform: NodeJS.Platform = process.platform): string[] {
  if (home === undefined || home === '') {
    return [];
  }
  if (platform === 'win32') {
    return [path.win32.join(home, '.cargo', 'bin')];
  }
  return [path.posix.join(home, '.cargo', 'bin'), path.posix.join(home, '.local', 'bin')];
}

/** Says that the server is missing, which PATH was searched and where else, and where the setting is. */
export function notFoundMessage(envPath: string | undefined, places: string[]): string {
  const searched = envPath === undefined || envPath === '' ? 'empty' : envPath;
  const also = places.length === 0 ? '' : ` nor in ${places.join(', ')}`;
  return (
    `foreach-ls was not found on PATH (${searched}; VS Code gives extensions the PATH of your login shell, which ` +
    `can differ from a terminal's)${also}. ${installHint}`
  );
}

/**
 * The command that starts the server, or a message saying why it cannot start: the server bundled in a
 * platform-specific .vsix (`bundled`, from `bundledServer`) when there is one, so the extension and its server are
 * always the same version; else `foreachLs.path` (a relative path is taken from the first workspace folder); else
 * `foreach-ls` looked up on `envPath`, then in the `usualPlaces` under `home`. To run another build (a newer one, a
 * debug one), install the platform-neutral extension, which carries no server, and set `foreachLs.path`.
 */
export function serverCommand(
  s: Settings,
  envPath: string | undefined,
  workspaceFolder: string | undefined,
  bundled?: string,
  platform: NodeJS.Platform = process.platform,
  home: string | undefined = os.homedir(),
): ServerCommand | { error: string } {
  if (bundled !== undefined) {
    return { command: bundled, args: ['serve'] };
  }
  if (s.path !== '') {
    const configured = path.isAbsolute(s.path) || workspaceFolder === undefined ? s.path : path.join(workspaceFolder, s.path);
    if (!isExecutable(configured)) {
      return { error: `\`foreachLs.path\` is set to ${configured}, which is not an executable file. ${installHint}` };
    }
    return { command: configured, args: ['serve'] };
  }
  const places = usualPlaces(home, platform);
  const sep = platform === 'win32' ? ';' : ':';
  const found = findOnPath('foreach-ls', envPath, platform) ?? findOnPath('foreach-ls', places.join(sep), platform);
  return found === undefined ? { error: notFoundMessage(envPath, places) } : { command: found, args: ['serve'] };
}

/**
 * The server a platform-specific .vsix carries (`server/foreach-ls[.exe]` in the extension's directory,
 * scripts/package-vsix.sh), or undefined in the platform-neutral extension. Made executable if unpacking lost
 * the mode.
 */
export function bundledServer(extensionDir: string, platform: NodeJS.Platform = process.platform): string | undefined {
  const file = path.join(extensionDir, 'server', platform === 'win32' ? 'foreach-ls.exe' : 'foreach-ls');
  if (!fs.existsSync(file)) {
    return undefined;
  }
  if (!isExecutable(file)) {
    try {
      fs.chmodSync(file, 0o755);
    } catch {
      // Reported below as not executable.
    }
  }
  return isExecutable(file) ? file : undefined;
}

export function findOnPath(name: string, envPath: string | undefined, platform: NodeJS.Platform): string | undefined {
  const exts = platform === 'win32' ? ['.exe', '.cmd', ''] : [''];
  const sep = platform === 'win32' ? ';' : ':';
  for (const dir of (envPath ?? '').split(sep)) {
    if (dir === '') {
      continue;
    }
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (isExecutable(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) {
      return false;
    }
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
