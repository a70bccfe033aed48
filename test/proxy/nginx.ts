// Real nginx in front of a proxy, configured with the very `location /tryon/` block that
// docs/integrations/deploy-proxy.md tells shops to use (read from the doc, not copied), on a free
// loopback port, with every file it writes in a temporary prefix. Debian's nginx, found as `npm test`
// finds it (scripts/prerequisites.ts: NGINX_PATH, PATH, the system folders).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { programPath } from '../../scripts/prerequisites.js';
import { freePort } from './cluster.js';

const DOC = new URL('../../docs/integrations/deploy-proxy.md', import.meta.url);
/** The upstream address the doc's snippet names; replaced by the proxy under test. */
const DOC_UPSTREAM = 'http://127.0.0.1:8787/';

/** The doc's nginx block for the proxy, exactly as written there. */
export async function documentedLocation(): Promise<string> {
  const text = await readFile(DOC, 'utf8');
  const blocks = [...text.matchAll(/```nginx\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const block = blocks.find((b) => b.includes('location /tryon/'));
  if (!block) throw new Error('docs/integrations/deploy-proxy.md has no nginx block with location /tryon/');
  if (!block.includes(DOC_UPSTREAM)) throw new Error(`the documented nginx block no longer proxies to ${DOC_UPSTREAM}`);
  return block;
}

/**
 * The settings the doc starts the proxy behind that block with: the first `TRYON_*=value` of each
 * name written after the block, up to the next section.
 */
export async function documentedProxyEnv(): Promise<Record<string, string>> {
  const text = await readFile(DOC, 'utf8');
  const location = await documentedLocation();
  const after = text.slice(text.indexOf(location) + location.length);
  const section = after.slice(0, after.search(/^## /m) >>> 0);
  const env: Record<string, string> = {};
  for (const [, name, value] of section.matchAll(/\b(TRYON_[A-Z_]+|PORT)=([^\s`]+)/g)) env[name!] ??= value!;
  return env;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface Nginx {
  /** Where the shop's page reaches the proxy: http://127.0.0.1:<port>/tryon */
  url: string;
  port: number;
  config: string;
  stop(): Promise<void>;
}

/** Starts nginx with the documented block, proxying to `upstreamPort`; resolves once it accepts connections. */
export async function startNginx(upstreamPort: number): Promise<Nginx> {
  const location = (await documentedLocation()).replace(DOC_UPSTREAM, `http://127.0.0.1:${upstreamPort}/`);
  return serveNginx((port) =>
    [
      '  server {',
      `    listen 127.0.0.1:${port};`,
      '    server_name shop.test;',
      location
        .split('\n')
        .map((line) => `    ${line}`)
        .join('\n'),
      '  }',
    ].join('\n'),
  );
}

/**
 * Runs nginx with `server(port)` as the inside of its `http` block, on a free loopback port, with
 * every file it writes in a temporary prefix; resolves once it accepts connections, and tries
 * another port if the one it was given was taken in the meantime.
 */
async function serveNginx(server: (port: number) => string): Promise<Nginx> {
  const binary = programPath('nginx');
  const prefix = await mkdtemp(join(tmpdir(), 'tryon-nginx-'));
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const config = [
      // As root the workers would switch to `nobody`, which cannot use the temporary prefix.
      process.getuid?.() === 0 ? 'user root;' : '',
      'daemon off;',
      'worker_processes 1;',
      `error_log ${join(prefix, 'error.log')} warn;`,
      `pid ${join(prefix, 'nginx.pid')};`,
      'events { worker_connections 1024; }',
      'http {',
      `  access_log ${join(prefix, 'access.log')};`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (kind) => `  ${kind}_temp_path ${join(prefix, kind)};`,
      ),
      server(port),
      '}',
      '',
    ].join('\n');
    const configPath = join(prefix, 'nginx.conf');
    await writeFile(configPath, config);
    const child: ChildProcess = spawn(binary, ['-p', prefix, '-e', join(prefix, 'error.log'), '-c', configPath], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let exitCode: number | null | undefined;
    void exited.then((code) => {
      exitCode = code;
    });
    // Ready when it accepts a connection; gone if it exits first.
    while (exitCode === undefined && !(await accepts(port))) await new Promise((resolve) => setTimeout(resolve, 20));
    if (exitCode !== undefined) {
      const log = await readFile(join(prefix, 'error.log'), 'utf8').catch(() => '');
      if (attempt < 3 && /Address already in use/.test(log + stderr)) continue;
      await rm(prefix, { recursive: true, force: true });
      throw new Error(`nginx did not start (exit ${exitCode}): ${stderr}${log}`);
    }
    return {
      url: `http://127.0.0.1:${port}/tryon`,
      port,
      config,
      stop: async () => {
        if (exitCode === undefined) {
          child.kill('SIGQUIT');
          await exited;
        }
        await rm(prefix, { recursive: true, force: true });
      },
    };
  }
}

/** The doc's nginx set-up for several instances (an `upstream tryon_proxy` block and its server), exactly as written there. */
export async function documentedCluster(): Promise<string> {
  const text = await readFile(DOC, 'utf8');
  const block = [...text.matchAll(/```nginx\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((b) => b.includes('upstream tryon_proxy'));
  if (!block) throw new Error('docs/integrations/deploy-proxy.md has no nginx block with upstream tryon_proxy');
  return block;
}

/**
 * Starts nginx with the doc's several-instances block, its `server 127.0.0.1:…` lines pointed at
 * `ports` (one per instance, in order) and its server block listening on a free loopback port.
 */
export async function startNginxCluster(ports: number[]): Promise<Nginx> {
  const documented = await documentedCluster();
  const servers = [...documented.matchAll(/^(\s*server 127\.0\.0\.1:)(\d+)/gm)];
  if (servers.length !== ports.length)
    throw new Error(`the documented upstream names ${servers.length} instances, not ${ports.length}`);
  let index = 0;
  const pointed = documented.replace(
    /^(\s*server 127\.0\.0\.1:)(\d+)/gm,
    (_, head: string) => `${head}${ports[index++]}`,
  );
  return serveNginx((port) =>
    pointed
      .replace(/^server \{$/m, `server {\n  listen 127.0.0.1:${port};\n  server_name shop.test;`)
      .split('\n')
      .map((line) => `  ${line}`)
      .join('\n'),
  );
}
