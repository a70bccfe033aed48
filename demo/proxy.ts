// `tsx demo/proxy.ts`: the token proxy on its own port for development, as `tsx proxy/node.ts`
// serves it, plus the two conveniences the proxy's own entry leaves out: with no TRYON_API_KEY it
// starts an in-process sandbox, and with no TRYON_CATALOG it serves the demo shop's catalog with
// its pictures drawn. Everything else (validation, limits, origins) is loadConfig's, as in the bin.
import { dirname, resolve } from 'node:path';
import { CatalogError } from '../proxy/catalog.js';
import { ConfigError, describeConfig, loadConfig, proxyOptionsFrom } from '../proxy/config.js';
import { fileIdCacheAt, missingCatalogImages, readCatalogFile, startProxy } from '../proxy/node.js';
import type { ProxyOptions } from '../proxy/app.js';
import { prepareShopCatalog } from './shop/tryon-catalog.js';
import { connectTryonService } from './tryon-service.js';

async function catalogFrom(catalogPath: string | undefined, assetsDir: string | undefined): Promise<{ catalog: ProxyOptions['catalog']; assetsDir: string }> {
  if (!catalogPath) {
    const shop = await prepareShopCatalog();
    console.log(`tryon proxy: no TRYON_CATALOG, so serving the demo shop's catalog (images in ${shop.imagesDir})`);
    return { catalog: shop.catalog, assetsDir: shop.imagesDir };
  }
  const path = resolve(catalogPath);
  const catalog = await readCatalogFile(path) as ProxyOptions['catalog'];
  const dir = resolve(assetsDir ?? dirname(path));
  const missing = await missingCatalogImages(catalog, dir);
  if (missing.length > 0) console.warn(`tryon proxy: some catalog images are missing (set TRYON_ASSETS_DIR?); their products will fail:\n  - ${missing.join('\n  - ')}`);
  return { catalog, assetsDir: dir };
}

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const { catalog, assetsDir } = await catalogFrom(config.catalogPath, config.assetsDir);
  const service = await connectTryonService(config, {
    port: 0, hostname: '127.0.0.1', speed: Number(process.env.SANDBOX_SPEED ?? 1),
  });
  if (service.sandbox) console.log(`tryon proxy: no TRYON_API_KEY, so using an in-process sandbox at ${service.sandbox.url} (a stand-in; nothing is billed)`);
  const proxy = await startProxy({
    ...proxyOptionsFrom(config),
    apiKey: service.apiKey,
    baseUrl: service.baseUrl,
    upstreamLabel: service.upstreamLabel,
    catalog,
    assetsDir,
    // A fresh in-process sandbox knows none of last run's files: remember ids only for a real service.
    ...(config.fileIdCachePath || !service.sandbox
      ? { fileIdCache: fileIdCacheAt(config.fileIdCachePath ?? resolve(config.catalogPath ? dirname(resolve(config.catalogPath)) : assetsDir, '.tryon-file-ids.json')) }
      : {}),
    port: config.port,
    hostname: config.hostname,
  });
  console.log(describeConfig(config));
  console.log(`tryon proxy: listening on ${proxy.url}`);
  const stop = async () => {
    await proxy.close();
    await service.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

try {
  await main();
} catch (error) {
  if (error instanceof ConfigError || error instanceof CatalogError) console.error(error.message);
  else console.error('tryon proxy: failed to start:', (error as Error).message);
  process.exit(1);
}
