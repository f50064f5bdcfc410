/** The database used when neither MONGODB_URL's path nor MONGODB_DB names one. */
export const DEFAULT_MONGODB_DB = 'report_moderation';

/**
 * The database named in the connection string's path (`mongodb://h1,h2/name?opts`), else
 * `fallback`, else report_moderation. Parsed by hand: a multi-host string is not a WHATWG URL, and
 * this module must not load the driver.
 */
export function mongoDatabaseName(url: string, fallback?: string): string {
  const hostsAndPath = url.replace(/^mongodb(\+srv)?:\/\//, '');
  // Characters of the user info that could be confused with '/' must be percent-encoded, so the
  // first '/' ends the host list.
  const slash = hostsAndPath.indexOf('/');
  const path = slash === -1 ? '' : hostsAndPath.slice(slash + 1).split('?')[0]!;
  const named = path === '' ? '' : decodeURIComponent(path);
  return named || fallback || DEFAULT_MONGODB_DB;
}
