/**
 * Hands content the console fetched (with its bearer token, which a plain link cannot carry) to the
 * browser as a file download.
 */
export function saveFile(content: Blob | string, filename: string, type = 'text/plain'): void {
  const url = URL.createObjectURL(typeof content === 'string' ? new Blob([content], { type }) : content);
  Object.assign(document.createElement('a'), { href: url, download: filename }).click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A server's name as a file name: what no file system takes becomes `_`. */
export const fileNamePart = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '_');
