// The local link: a running web host writes <data dir>/link.json (its origin, token, process and version,
// private to the user), a tool that reads it is served with the token as a Bearer header, and the file is
// removed when the host closes, unless another host has replaced it in the meantime.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { linkFilePath, linkFileSchema, writeLinkFile } from '../../main/host/link-file.ts';
import { startWebHost } from '../../main/host/web-host.ts';
import { raw, tempDir } from './helpers.ts';

const data = tempDir('link-file');
afterAll(() => data.remove());

const start = (dataDir: string) =>
  startWebHost({ dataDir, rendererDir: join(data.path, 'none'), serviceOptions: { engineSpeed: 500 } });

describe('link.json', () => {
  it('is written while the host runs (0600) and lets a tool call a command with its token', async () => {
    const dataDir = join(data.path, 'one');
    const host = await start(dataDir);
    try {
      const path = linkFilePath(dataDir);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      const link = linkFileSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
      const version = (
        JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
      ).version;
      expect(link).toEqual({ url: host.origin, token: host.linkToken, pid: process.pid, version });
      expect(link.token).not.toBe(host.token); // the link's own token, not the page's
      const port = Number(new URL(link.url).port);
      const asked = { method: 'POST', path: '/api/call/jobs.list', body: '{}' };
      const answer = await raw(port, {
        ...asked,
        headers: {
          host: `127.0.0.1:${port}`,
          'content-type': 'application/json',
          authorization: `Bearer ${link.token}`,
        },
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ jobs: [], total: 0 });
      const refused = await raw(port, {
        ...asked,
        headers: {
          host: `127.0.0.1:${port}`,
          'content-type': 'application/json',
          authorization: 'Bearer not-the-token',
        },
      });
      expect(refused.status).toBe(401);
    } finally {
      await host.close();
    }
    expect(existsSync(linkFilePath(dataDir))).toBe(false);
  });

  it("has a token of its own launch: a restart on the same port keeps the page's token, not the link's (issue #33)", async () => {
    const dataDir = join(data.path, 'restart');
    const jobsList = (port: number, token: string) =>
      raw(port, {
        method: 'POST',
        path: '/api/call/jobs.list',
        body: '{}',
        headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json', authorization: `Bearer ${token}` },
      });
    const first = await start(dataDir);
    const firstLink = linkFileSchema.parse(JSON.parse(readFileSync(linkFilePath(dataDir), 'utf8')));
    await first.close();
    const second = await start(dataDir);
    try {
      expect(second.port).toBe(first.port); // the saved address: an open tab reconnects with its token
      expect(second.token).toBe(first.token);
      const secondLink = linkFileSchema.parse(JSON.parse(readFileSync(linkFilePath(dataDir), 'utf8')));
      expect(secondLink.token).not.toBe(firstLink.token);
      expect((await jobsList(second.port, firstLink.token)).status).toBe(401);
      expect((await jobsList(second.port, secondLink.token)).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('is left in place at close when another host has replaced it', async () => {
    const dataDir = join(data.path, 'two');
    const host = await start(dataDir);
    const other = await writeLinkFile(dataDir, {
      origin: 'http://127.0.0.1:1',
      token: 'another-host-token-0123456789',
    });
    await host.close();
    expect(JSON.parse(readFileSync(linkFilePath(dataDir), 'utf8'))).toEqual(other);
  });
});
