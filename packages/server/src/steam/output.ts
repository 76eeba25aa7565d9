import type { ApiError } from '@garrison/core';
import { appInstallFailure, appStateFailure, branchPasswordFailure, guardRequired, itemFailure, loginFailure } from './failures.js';

/**
 * SteamCMD's output, read as it comes: chunks become lines (a `\r` redraw of a progress line is a line of
 * its own), lines become events. Only the line forms below mean something; every other line is log.
 */
export type SteamEvent =
  | { type: 'progress'; state: string; fraction: number; done: number; total: number }
  | { type: 'logged_in'; user: string | null }
  | { type: 'app_installed'; appId: string }
  | { type: 'item_downloaded'; itemId: string; path: string; bytes: number }
  | { type: 'item_failed'; itemId: string; reason: string; error: ApiError }
  /** A failure of the whole run (login, app install): no item of it can succeed. */
  | { type: 'failure'; error: ApiError }
  /** The VDF `+app_info_print` printed after its `AppID : <id>` line, once its braces close. */
  | { type: 'app_info'; appId: string; text: string };

/** A line longer than this is cut: a runaway line must not hold the memory of the service. */
const MAX_LINE = 16 * 1024;
/** The most of an `app_info_print` block kept (a real one is some tens of KB). */
const MAX_APP_INFO = 4 * 1024 * 1024;

/** Splits a stream of text into lines at `\n`, `\r\n` and a lone `\r` (SteamCMD redraws progress with it). */
export class LineSplitter {
  private partial = '';
  private afterCR = false;

  feed(chunk: string): string[] {
    const lines: string[] = [];
    for (const part of chunk.split(/(\r\n|\r|\n)/)) {
      if (part === '') continue;
      if (part === '\n' && this.afterCR) {
        this.afterCR = false; // the \n of a \r\n cut between two chunks: the line already ended
        continue;
      }
      this.afterCR = part === '\r';
      if (part === '\r' || part === '\n' || part === '\r\n') {
        lines.push(this.partial);
        this.partial = '';
      } else {
        this.partial = (this.partial + part).slice(0, MAX_LINE);
      }
    }
    return lines;
  }

  /** The last line, when the output did not end with a line break. */
  end(): string[] {
    const rest = this.partial;
    this.partial = '';
    return rest === '' ? [] : [rest];
  }
}

const PROGRESS = /^\s*Update state \(0x([0-9a-f]+)\) ([^,]+), progress: ([0-9.]+) \((\d+) \/ (\d+)\)/i;
const APP_OK = /^Success! App '(\d+)' (?:fully installed|already up to date)/;
const ITEM_OK = /^Success\. Downloaded item (\d+) to "(.*)" \((\d+) bytes\)/;
const ITEM_FAILED = /^ERROR! Download item (\d+) failed \((.*)\)\.?\s*$/;
const APP_STATE = /^Error! App '(\d+)' state is 0x([0-9a-f]+) after update job/i;
const APP_FAILED = /^ERROR! Failed to install app '(\d+)' \((.*)\)\s*$/;
const BRANCH_PASSWORD = /^ERROR! Password check for AppId (\d+) returned error (.*?)\.?\s*$/;
const LOGIN = /^Logging in user '([^']*)'(?: \[[^\]]*\])? to Steam Public\s*\.*\s*(.*)$/;
const ANONYMOUS = /^Connecting anonymously to Steam Public\s*\.*\s*(.*)$/;
/** How a login ends, on the login line or one after it: `OK`, `Logged in OK`, `FAILED (reason)`, `FAILED login with result code X`. */
const LOGIN_END = /^(?:.*?\b)?(?:(?:Logged in )?(OK)\b|(?:FAILED|ERROR)\s*(?:login with result code\s*)?\(?([^)]*?)\)?\.?\s*)$/;
/** Lines by which SteamCMD asks for a Steam Guard code (it then gives up: stdin is closed). */
const GUARD_PROMPT =
  /Steam Guard code:|Two-factor code:|has not been authenticated for your account using Steam Guard|Two-factor code mismatch|Invalid Login Auth Code/i;
const APP_INFO = /^AppID\s*:\s*(\d+)/;

/** Reads lines into events; `redact` masks every text that an event carries out (reasons, paths). */
export class SteamOutputParser {
  private loginUser: string | null | undefined; // set while a login is under way (null: anonymous)
  private guardSeen = false;
  private appInfo: { appId: string; lines: string[]; size: number; depth: number; opened: boolean } | null = null;

  constructor(private readonly redact: (text: string) => string = (text) => text) {}

  line(raw: string): SteamEvent[] {
    const line = raw.replace(/\s+$/, '');
    if (this.appInfo) {
      const events = this.appInfoLine(line);
      if (events) return events;
    }
    const guard = this.guard(line);
    if (guard) return guard;
    if (this.loginUser !== undefined) {
      const ended = this.loginEnd(line);
      if (ended) return ended;
    }
    let m: RegExpExecArray | null;
    if ((m = PROGRESS.exec(line))) {
      const [done, total] = [Number(m[4]), Number(m[5])];
      const fraction = total > 0 ? done / total : Number(m[3]) / 100;
      return [{ type: 'progress', state: m[2].trim(), fraction: Math.min(1, Math.max(0, fraction)), done, total }];
    }
    if ((m = LOGIN.exec(line)) || (m = ANONYMOUS.exec(line))) {
      this.loginUser = m.length === 3 ? m[1] : null;
      return m[m.length - 1] === '' ? [] : (this.loginEnd(m[m.length - 1]) ?? []);
    }
    if ((m = APP_OK.exec(line))) return [{ type: 'app_installed', appId: m[1] }];
    if ((m = ITEM_OK.exec(line))) return [{ type: 'item_downloaded', itemId: m[1], path: this.redact(m[2]), bytes: Number(m[3]) }];
    if ((m = ITEM_FAILED.exec(line))) {
      const reason = this.redact(m[2]);
      return [{ type: 'item_failed', itemId: m[1], reason, error: itemFailure(m[1], reason) }];
    }
    if ((m = APP_STATE.exec(line))) return [{ type: 'failure', error: appStateFailure(m[1], m[2]) }];
    if ((m = APP_FAILED.exec(line))) return [{ type: 'failure', error: appInstallFailure(m[1], this.redact(m[2])) }];
    if ((m = BRANCH_PASSWORD.exec(line))) return [{ type: 'failure', error: branchPasswordFailure(m[1], this.redact(m[2])) }];
    if ((m = APP_INFO.exec(line))) this.appInfo = { appId: m[1], lines: [], size: 0, depth: 0, opened: false };
    return [];
  }

  /** A Steam Guard prompt or refusal, said once: SteamCMD may print several lines of it. */
  private guard(line: string): SteamEvent[] | null {
    if (!GUARD_PROMPT.test(line)) return null;
    this.loginUser = undefined;
    if (this.guardSeen) return [];
    this.guardSeen = true;
    return [{ type: 'failure', error: guardRequired(this.redact(line.trim().replace(/:$/, ''))) }];
  }

  /** The end of a login under way, or null when the line says nothing of it. */
  private loginEnd(text: string): SteamEvent[] | null {
    const m = LOGIN_END.exec(text.trim());
    if (!m) return null;
    const user = this.loginUser ?? null;
    this.loginUser = undefined;
    if (m[1]) return [{ type: 'logged_in', user }];
    if (this.guardSeen) return []; // the refusal that follows a Guard prompt says nothing new
    return [{ type: 'failure', error: loginFailure(user, this.redact(m[2] || 'no reason given')) }];
  }

  /**
   * A line of an `app_info_print` block: collected until its outermost braces close. Null when the line
   * shows no block follows (SteamCMD found no info): it is then read as any other line.
   */
  private appInfoLine(line: string): SteamEvent[] | null {
    const info = this.appInfo!;
    if (!info.opened && !/^\s*(?:"[^"]*"|\{)?\s*$/.test(line)) {
      this.appInfo = null;
      return null;
    }
    info.size += line.length + 1;
    if (info.size > MAX_APP_INFO) {
      this.appInfo = null; // not a block a real SteamCMD prints: dropped, and the caller finds no app info
      return [];
    }
    info.lines.push(line);
    info.depth += braceBalance(line);
    if (info.depth > 0) info.opened = true;
    if (!info.opened || info.depth > 0) return [];
    this.appInfo = null;
    return [{ type: 'app_info', appId: info.appId, text: info.lines.join('\n') }];
  }
}

/** `{` minus `}` in a VDF line, outside its quoted strings. */
function braceBalance(line: string): number {
  let balance = 0;
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (quoted && c === '\\') i += 1;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === '{') balance += 1;
    else if (!quoted && c === '}') balance -= 1;
  }
  return balance;
}

/**
 * The splitters (one per stream: stdout and stderr interleave mid-line) and the parser together: what
 * the runner feeds each chunk of output into.
 */
export class SteamOutputReader {
  private readonly splitters = { stdout: new LineSplitter(), stderr: new LineSplitter() };
  private readonly parser: SteamOutputParser;

  constructor(
    redact: (text: string) => string,
    private readonly onLine: (line: string, events: SteamEvent[]) => void,
  ) {
    this.parser = new SteamOutputParser(redact);
  }

  feed(chunk: string, stream: 'stdout' | 'stderr' = 'stdout'): void {
    for (const line of this.splitters[stream].feed(chunk)) this.onLine(line, this.parser.line(line));
  }

  end(): void {
    for (const splitter of Object.values(this.splitters)) for (const line of splitter.end()) this.onLine(line, this.parser.line(line));
  }
}

/**
 * The last lines of a run, bounded: what a job shows. A progress redraw replaces the progress line
 * before it, so that a long download does not push everything else out.
 */
export class OutputTail {
  private readonly kept: { line: string; progress: boolean }[] = [];

  constructor(private readonly size = 200) {}

  push(line: string, progress = false): void {
    const last = this.kept.at(-1);
    if (progress && last?.progress) last.line = line;
    else this.kept.push({ line, progress });
    if (this.kept.length > this.size) this.kept.splice(0, this.kept.length - this.size);
  }

  get lines(): string[] {
    return this.kept.map((k) => k.line);
  }
}
