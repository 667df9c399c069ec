import pg from 'pg';

/**
 * A database of its own, `name`, on the PostgreSQL server of `serverUrl`: empty, or a copy of
 * `template`; and how to drop it. PostgreSQL refuses to copy a database another session is
 * connected to (someone else copying it): that is retried for two minutes.
 */
export async function createDatabase(serverUrl: string, name: string, template?: string) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
        break;
      } catch (error) {
        // "source database is being accessed by other users".
        if (attempt > 40 || (error as { code?: string }).code !== '55006') throw error;
        await new Promise((r) => setTimeout(r, 3000));
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
