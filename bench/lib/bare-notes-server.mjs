#!/usr/bin/env node
// The floor the notes list is measured against (bench/load.bench.mjs): a bare Node HTTP server
// that answers GET /notes?owner=<uuid> with the owner's active notes, the whole JSON answer built
// by Postgres in one query (the same fields, order and date format as GET /api/notes). No token,
// no RPC, no object per row: what is left is the query, the socket and the bytes.
//
//   DATABASE_URL=postgres://... node bench/lib/bare-notes-server.mjs   (prints "listening <port>")
import http from 'node:http';
import pg from 'pg';

const iso = (col) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const SQL = `
  SELECT '{"notes":' || coalesce(json_agg(json_build_object(
      'id', id, 'title', title, 'content', content, 'tags', tags, 'wrappedDEK', wrapped_dek,
      'isEncrypted', is_encrypted, 'isDeleted', is_deleted, 'createdAt', ${iso('created_at')},
      'updatedAt', ${iso('updated_at')}, 'deletedAt', ${iso('deleted_at')})
    ORDER BY updated_at DESC, stored_order ASC, id DESC), '[]') || ',"nextCursor":null}' AS body
  FROM notes.notes WHERE owner_id = $1 AND is_deleted = false`;

// As many connections as the notes service's pool (TypeORM's default for pg: 10).
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

const server = http.createServer(async (req, res) => {
  const owner = new URL(req.url ?? '/', 'http://x').searchParams.get('owner');
  try {
    const { rows } = await pool.query({ name: 'bare-notes', text: SQL, values: [owner] });
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(rows[0].body);
  } catch {
    res.writeHead(500).end();
  }
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
