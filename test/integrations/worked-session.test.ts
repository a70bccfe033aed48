// docs/proxy.md's "Worked session against `npm start`" run as written, with bash and curl, against
// the demo (started here on free ports, the sandbox at speed 0): a reader who copies it gets the
// answers it shows, down to the result image's headers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startDemo, type Demo } from '../../demo/start.js';
import { projectRoot } from '../../scripts/build.js';

const run = promisify(execFile);
let demo: Demo;
let work: string;

before(async () => {
  demo = await startDemo({ port: 0, sandboxPort: 0, speed: 0, quiet: true });
  work = await mkdtemp(join(tmpdir(), 'tryon-worked-session-'));
  // The session names the demo's shopper photo by its path under the project.
  await mkdir(join(work, '.cache/demo-shop'), { recursive: true });
  await symlink(join(projectRoot, '.cache/demo-shop/images'), join(work, '.cache/demo-shop/images'));
});
after(async () => {
  await demo?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The session's shell block, pointed at this demo instead of http://127.0.0.1:8080. */
async function session(): Promise<string> {
  const doc = await readFile(join(projectRoot, 'docs/proxy.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### Worked session against `npm start`'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'docs/proxy.md has the worked session');
  assert.match(block, /http:\/\/127\.0\.0\.1:8080\/tryon/);
  return block.replaceAll('http://127.0.0.1:8080', demo.url);
}

test("docs/proxy.md's worked session runs as written and answers as it shows", { timeout: 120_000 }, async () => {
  const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', await session()], { cwd: work, timeout: 90_000 });
  assert.match(stdout, /\{"ok":true,"upstream":"sandbox"\}/, 'the health answer');
  assert.match(stdout, /"product":"saree-bengali-haveli".*"typicalSeconds":\{"image":\[/, "the product's answer");
  assert.match(
    stdout,
    /event: status\ndata: \{"status":"(queued|processing)"/,
    'the stream says the try-on is under way',
  );
  assert.match(
    stdout,
    /event: status\ndata: \{"status":"succeeded","outputs":\[\{"view":"front"/,
    'and ends succeeded',
  );
  assert.match(stdout, /HTTP\/1\.1 200 OK/, "the result's headers");
  assert.match(stdout, /content-type: image\/(jpeg|png)/);
  assert.ok((await stat(join(work, 'front.jpg'))).size > 1000, 'the result image was saved');
});
