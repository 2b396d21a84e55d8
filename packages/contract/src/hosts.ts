/** A host name pattern of a site ('*' matches any run of characters), case-insensitive. */
export function hostMatches(pattern: string, hostname: string): boolean {
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'i',
  );
  return re.test(hostname);
}
