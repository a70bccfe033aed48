// The sandbox's video try-on: real H.264 MP4 frames made from the front's layers (the dressed figure turning
// or moving as the motion asks over the drawn backdrop, the camera moving as it asks) and encoded by the ffmpeg that
// @ffmpeg-installer ships, so the widget's video step plays a real file. Small frames keep it quick.
import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { backdropPicture, captionLines, markingSvg } from './render.js';
import type { Front, Picture, RenderLabels } from './picture.js';

export interface VideoSpec extends RenderLabels {
  duration_seconds: number;
  fps: number;
  motion: string;
  camera: string;
}

// Small frames keep a 5 s, 24 fps video to a few seconds of work on a busy two-core machine.
const longSide = 480;

let ffmpegPath: Promise<string> | undefined;

/** The ffmpeg binary shipped in @ffmpeg-installer; some installs lose its executable bit. */
export function ffmpegBinary(): Promise<string> {
  ffmpegPath ??= import('@ffmpeg-installer/ffmpeg').then(({ default: ffmpeg }) => {
    try {
      accessSync(ffmpeg.path, constants.X_OK);
    } catch {
      chmodSync(ffmpeg.path, 0o755);
    }
    return ffmpeg.path;
  });
  return ffmpegPath;
}

const even = (n: number) => Math.max(2, Math.floor(n / 2) * 2);
const raw = (width: number, height: number, channels: 3 | 4) => ({ raw: { width, height, channels } });

/**
 * The drawn backdrop twice the frame's width (itself, then itself mirrored, so the join does not
 * show), so an orbiting camera slides past it behind the figure.
 */
async function stageOf(background: string, width: number, height: number): Promise<Buffer> {
  const once = await backdropPicture(background, width, height);
  const mirrored = await sharp(once, raw(width, height, 3))
    .flop()
    .raw()
    .toBuffer();
  return sharp({ create: { width: width * 2, height, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .composite([
      { input: once, ...raw(width, height, 3), left: 0, top: 0 },
      { input: mirrored, ...raw(width, height, 3), left: width, top: 0 },
    ])
    .removeAlpha()
    .raw()
    .toBuffer();
}

/** Where the figure is and how it is turned at time t (0..1): the motion, visible. */
function pose(motion: string, t: number, width: number, height: number) {
  const turn = Math.cos(2 * Math.PI * t);
  switch (motion) {
    case 'twirl':
      return { scaleX: Math.max(0.12, Math.abs(turn)), mirrored: turn < 0, dx: 0, dy: 0, angle: 0 };
    case 'walk':
      return {
        scaleX: 0.9,
        mirrored: false,
        dx: Math.sin(4 * Math.PI * t) * width * 0.1,
        dy: -Math.abs(Math.sin(8 * Math.PI * t)) * height * 0.03,
        angle: 0,
      };
    case 'sway':
      return { scaleX: 1, mirrored: false, dx: 0, dy: 0, angle: Math.sin(4 * Math.PI * t) * 8 };
    default: // turn: to the side and back
      return { scaleX: Math.max(0.3, 1 - 0.7 * Math.sin(Math.PI * t)), mirrored: false, dx: 0, dy: 0, angle: 0 };
  }
}

/** The part of the scene the camera sees at time t, as a window to crop then scale back up. */
function cameraWindow(camera: string, t: number, width: number, height: number) {
  const zoom = camera === 'dolly_in' ? 1 + 0.3 * t : camera === 'pan' ? 1.25 : 1;
  const w = Math.round(width / zoom);
  const h = Math.round(height / zoom);
  const left = camera === 'pan' ? Math.round((width - w) * t) : Math.round((width - w) / 2);
  return { left, top: Math.round((height - h) / 2), width: w, height: h };
}

async function frame(
  figure: Picture,
  backdrop: Buffer,
  overlay: Buffer,
  spec: VideoSpec,
  t: number,
  size: { width: number; height: number },
): Promise<Buffer> {
  const { width, height } = size;
  const p = pose(spec.motion, t, width, height);
  let body = sharp(figure.data, raw(figure.width, figure.height, 4))
    .resize({ width: Math.max(2, Math.round(figure.width * p.scaleX)), height: figure.height, fit: 'fill' })
    .ensureAlpha();
  if (p.mirrored) body = body.flop().modulate({ brightness: 0.7 });
  if (p.angle) body = body.rotate(p.angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } });
  const turned = await body.raw().toBuffer({ resolveWithObject: true });
  // Orbiting means the backdrop slides past behind the figure.
  const slide = spec.camera === 'orbit' ? Math.round(width * t) : 0;
  const stage = await sharp(backdrop, raw(width * 2, height, 3))
    .extract({ left: slide, top: 0, width, height })
    .toBuffer();
  const fitted = await sharp(turned.data, raw(turned.info.width, turned.info.height, 4))
    .resize({ width, height, fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const left = Math.min(Math.max(0, Math.round((width - fitted.info.width) / 2 + p.dx)), width - fitted.info.width);
  const top = Math.min(Math.max(0, Math.round((height - fitted.info.height) / 2 + p.dy)), height - fitted.info.height);
  const scene = await sharp(stage, raw(width, height, 3))
    .composite([{ input: fitted.data, ...raw(fitted.info.width, fitted.info.height, 4), left, top }])
    .removeAlpha()
    .raw()
    .toBuffer();
  const bar = Math.max(1, Math.round(width * t));
  return sharp(scene, raw(width, height, 3))
    .extract(cameraWindow(spec.camera, t, width, height))
    .resize({ width, height, fit: 'fill' })
    .composite([
      { input: overlay, ...raw(width, height, 4), left: 0, top: 0 },
      {
        input: { create: { width: bar, height: 4, channels: 3, background: { r: 208, g: 2, b: 27 } } },
        left: 0,
        top: 0,
      },
    ])
    .removeAlpha()
    .raw()
    .toBuffer();
}

/** A real H.264 MP4: duration × fps frames of the dressed figure on the drawn backdrop, moving and filmed as asked. */
export async function renderVideo(
  front: Front,
  spec: VideoSpec,
  signal?: AbortSignal,
): Promise<{ bytes: Buffer; width: number; height: number }> {
  const scale = Math.min(1, longSide / Math.max(front.width, front.height));
  const width = even(front.width * scale);
  const height = even(front.height * scale);
  const figure = await sharp(await front.figure(), raw(front.width, front.height, 4))
    .resize({ width, height, fit: 'fill' })
    .raw()
    .toBuffer();
  const figurePicture: Picture = { data: figure, width, height };
  const backdrop = await stageOf(spec.background, width, height);
  const scaleBox = (n: number) => n * (width / front.width);
  const lines = [
    ...captionLines(spec),
    `video · ${spec.motion} · camera ${spec.camera} · ${spec.duration_seconds}s @ ${spec.fps} fps`,
  ];
  const box = front.figureBox;
  const overlay = await sharp(
    markingSvg(width, height, lines, { left: scaleBox(box.left), width: scaleBox(box.width) }),
  )
    .ensureAlpha()
    .raw()
    .toBuffer();

  const dir = await mkdtemp(join(tmpdir(), 'sandbox-video-'));
  const out = join(dir, 'tryon.mp4');
  try {
    const ffmpeg = spawn(
      await ffmpegBinary(),
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-s',
        `${width}x${height}`,
        '-r',
        String(spec.fps),
        '-i',
        'pipe:0',
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-pix_fmt',
        'yuv420p',
        '-movflags',
        '+faststart',
        out,
      ],
      { stdio: ['pipe', 'ignore', 'pipe'] },
    );
    let stderr = '';
    ffmpeg.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    const exited = new Promise<number>((resolve, reject) => {
      ffmpeg.on('error', reject);
      ffmpeg.on('close', (code) => resolve(code ?? 1));
    });
    ffmpeg.stdin.on('error', () => {
      /* ffmpeg exiting early is reported by its exit code */
    });
    const frames = spec.duration_seconds * spec.fps;
    for (let i = 0; i < frames; i++) {
      if (signal?.aborted) {
        ffmpeg.kill('SIGKILL');
        throw new Error('video render stopped: the sandbox is closing');
      }
      const pixels = await frame(figurePicture, backdrop, overlay, spec, i / frames, { width, height });
      if (!ffmpeg.stdin.write(pixels)) await new Promise((resolve) => ffmpeg.stdin.once('drain', resolve));
    }
    ffmpeg.stdin.end();
    const code = await exited;
    if (code !== 0) throw new Error(`ffmpeg exited with ${code}: ${stderr.trim()}`);
    return { bytes: await readFile(out), width, height };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
