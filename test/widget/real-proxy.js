// web-test-runner middleware that forwards `/real/tryon/*` to the real token proxy and
// `/real/sandbox/*` to the real sandbox behind it (started on first use, in a child process,
// on ephemeral ports; see real-proxy-server.ts). Same origin for the page, as a shop mounts it.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** One real proxy + sandbox per browser engine: the engines run in parallel, and a test that
 * sets the sandbox's faults or counts its jobs must not see another engine's try-ons. */
const started = new Map();

/** The engine a request comes from, by its User-Agent (Chromium's also says Safari; Firefox's does not). */
function engineOf(ctx) {
  const agent = ctx.get('user-agent');
  if (/Firefox\//.test(agent)) return 'firefox';
  if (/Chrome\//.test(agent)) return 'chromium';
  return 'webkit';
}

function start(engine) {
  if (started.has(engine)) return started.get(engine);
  const servers = new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/widget/real-proxy-server.ts'], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      try {
        resolve(JSON.parse(line));
      } catch (error) {
        reject(error);
      }
    });
    child.once('exit', (code) => reject(new Error(`the real proxy exited (${code})`)));
    // Closing stdin tells the child to stop; kill is the backstop when the runner dies hard.
    process.once('exit', () => {
      child.stdin.end();
      child.kill();
    });
  });
  started.set(engine, servers);
  return servers;
}

function forward(ctx, target) {
  return new Promise((resolve) => {
    ctx.respond = false;
    const url = new URL(target);
    // The browser's Host and Origin go through unchanged: to the proxy this is a same-origin call.
    const upstream = request(
      {
        hostname: url.hostname,
        port: url.port,
        method: ctx.method,
        path: ctx.url.replace(/^\/real\/sandbox/, ''),
        headers: ctx.req.headers,
      },
      (answer) => {
        ctx.res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(ctx.res);
        answer.on('end', resolve);
      },
    );
    upstream.on('error', () => {
      if (!ctx.res.headersSent) ctx.res.writeHead(502, { 'content-type': 'application/json' });
      ctx.res.end(
        JSON.stringify({
          error: { code: 'upstream_unavailable', message: 'The test proxy is not running.', retryable: true },
        }),
      );
      resolve();
    });
    // The page went away (an EventSource closed): stop the upstream call too. (Not req's
    // 'close': that fires once the request body is read.)
    ctx.res.on('close', () => upstream.destroy());
    ctx.req.pipe(upstream);
  });
}

export function realProxyMiddleware() {
  return async function realProxy(ctx, next) {
    if (!ctx.path.startsWith('/real/')) return next();
    let servers;
    try {
      servers = await start(engineOf(ctx));
    } catch (error) {
      ctx.status = 503;
      ctx.type = 'application/json';
      ctx.body = JSON.stringify({ error: { code: 'upstream_unavailable', message: String(error), retryable: false } });
      return;
    }
    if (ctx.path.startsWith('/real/tryon/')) return forward(ctx, servers.proxy);
    if (ctx.path.startsWith('/real/sandbox/')) return forward(ctx, servers.sandbox);
    return next();
  };
}
