// Where DATABASE_URL points, for messages: without the PostgreSQL client (a SQLite install
// names its store without loading it) and never with the URL's password.

/**
 * "127.0.0.1:5432", "db.internal:6432", "/var/run/postgresql": where DATABASE_URL points,
 * for messages; never the URL itself, which may hold a password.
 */
export function postgresAddress (url: string): string {
  try {
    const u = new URL(url)
    const socket = u.searchParams.get('host')
    if (u.hostname === '' && socket) return socket
    return `${u.hostname || 'localhost'}:${u.port || '5432'}`
  } catch {
    return 'DATABASE_URL'
  }
}

/** "PostgreSQL 127.0.0.1:5432/shop": the address and the database, never user or password. */
export function postgresDatabase (url: string): string {
  let name = ''
  try { name = decodeURIComponent(new URL(url).pathname.slice(1)) } catch {}
  return `PostgreSQL ${postgresAddress(url)}/${name || '(the user\'s default database)'}`
}
