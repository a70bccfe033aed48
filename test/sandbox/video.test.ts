import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ffmpegBinary } from '../../sandbox/drawing/video.js';
import { imageBody, inputs, sandbox, settled } from './support.js';
import type { Sandbox } from './support.js';

/** What ffmpeg itself says about a file: its stream line, and the frames it decodes. */
async function probe(bytes: Uint8Array): Promise<{ stream: string; frames: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-probe-'));
  try {
    const file = join(dir, 'video.mp4');
    await writeFile(file, bytes);
    const child = spawn(await ffmpegBinary(), ['-hide_banner', '-i', file, '-map', '0:v:0', '-f', 'null', '-'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let text = '';
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, text);
    const stream = /Stream #0:0.*Video: .*/.exec(text)?.[0] ?? '';
    const frames = [...text.matchAll(/frame=\s*(\d+)/g)].map((m) => Number(m[1])).at(-1) ?? -1;
    return { stream, frames };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('video try-on', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await sandbox();
  });
  after(() => sb.close());

  for (const [motion, camera] of [
    ['twirl', 'orbit'],
    ['walk', 'dolly_in'],
  ] as const) {
    it(`renders a real H.264 MP4 of duration × fps frames (${motion}, ${camera})`, async () => {
      const files = await inputs(sb);
      const submit = await sb.json('POST', '/v1/videos/tryon', {
        json: imageBody(files, { duration_seconds: 1, fps: 8, motion, camera }),
      });
      assert.equal(submit.status, 202);
      assert.equal(submit.body.type, 'video');
      assert.equal(submit.body.status, 'queued');
      const job = await settled(sb, submit.body.id);
      assert.equal(job.status, 'succeeded', JSON.stringify(job.error));

      const outputs = (await sb.json('GET', `/v1/images/${job.id}/outputs`)).body.data;
      assert.equal(outputs.length, 1);
      const [output] = outputs;
      assert.equal(output.type, 'video');
      assert.equal(output.content_type, 'video/mp4');
      assert.equal(output.fps, 8);
      assert.equal(output.duration_seconds, 1);

      const content = await sb.call('GET', `/v1/files/${output.file_id}/content`);
      assert.equal(content.headers.get('content-type'), 'video/mp4');
      const bytes = new Uint8Array(await content.arrayBuffer());
      assert.equal(Number(content.headers.get('content-length')), bytes.length);
      assert.equal(Buffer.from(bytes.subarray(4, 8)).toString('latin1'), 'ftyp');

      const { stream, frames } = await probe(bytes);
      assert.match(stream, /h264/);
      assert.match(stream, new RegExp(`${output.width}x${output.height}`));
      assert.equal(frames, 8);
    });
  }

  it('defaults to 5 s at 24 fps, twirl, orbit', async () => {
    const files = await inputs(sb);
    const submit = await sb.json('POST', '/v1/videos/tryon', { json: imageBody(files) });
    assert.deepEqual(submit.body.video, { duration_seconds: 5, fps: 24, motion: 'twirl', camera: 'orbit' });
  });
});
