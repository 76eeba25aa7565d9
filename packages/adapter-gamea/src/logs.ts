import type { LogEntry, LogLevel } from '@garrison/core';

// `HH:MM:SS message` ("short"), `YYYY/MM/DD, HH:MM:SS message` ("full"), or the bare message ("none").
const TIMESTAMP = /^\s?(?:\d{4}\/\d{1,2}\/\d{1,2},\s+)?\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\s/;

const LEVEL_MARKERS: [RegExp, LogLevel][] = [
  [/^(?:error\b|\berror:|.*\bError in expression\b)/i, 'error'],
  [/^(?:warning\b|\bwarning:)/i, 'warning'],
  [/^debug\b:?/i, 'debug'],
];

export function parseLogLine(line: string): LogEntry | null {
  const message = line.replace(/\r$/, '').replace(TIMESTAMP, '').trimEnd();
  if (!message.trim()) return null;
  const level = LEVEL_MARKERS.find(([pattern]) => pattern.test(message))?.[1] ?? 'info';
  return { level, message };
}
