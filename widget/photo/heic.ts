// HEIC photos in browsers that cannot decode them (Chrome and Firefox; Safari can): libheif,
// compiled to WebAssembly, turns the picture into pixels here, so it goes through the same
// re-encoding as every other photo and its EXIF, GPS and XMP are left behind. This module is its
// own chunk of about 2 MB (0.7 MB gzipped), imported only when such a photo is picked; the wasm is
// inside it, so no other file is fetched, and a page's CSP must allow 'wasm-unsafe-eval'.
// libheif is LGPL-3.0: kept as this separate, replaceable file (docs/widget.md).
import createLibheif from 'libheif-js/libheif-wasm/libheif-bundle.mjs';

let loaded: Promise<Libheif> | undefined;

function libheif(): Promise<Libheif> {
  loaded ??= (async () => {
    const lib = createLibheif();
    await lib.ready;
    return lib;
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

/**
 * The photo's primary image as pixels, already turned the way its container says (libheif
 * applies the HEIF rotation and mirroring). Throws when the file is not a HEIF it can decode.
 */
export async function decodeHeic(file: Blob): Promise<ImageData> {
  const lib = await libheif();
  const decoder = new lib.HeifDecoder();
  const images = decoder.decode(new Uint8Array(await file.arrayBuffer()));
  try {
    const image = images[0];
    if (!image) throw new Error('The HEIC file holds no image libheif can read.');
    const pixels = new ImageData(image.get_width(), image.get_height());
    await new Promise<void>((resolve, reject) => {
      image.display(pixels, (shown) => (shown ? resolve() : reject(new Error('libheif could not decode the image.'))));
    });
    return pixels;
  } finally {
    for (const image of images) image.free();
    decoder.decoder?.delete();
  }
}
