// `tsx demo/proxy.ts`: the token proxy on its own port for development, as `tsx proxy/node.ts`
// serves it, plus the two conveniences the proxy's own entry leaves out: with no TRYON_API_KEY it
// starts an in-process sandbox, and with no TRYON_CATALOG it serves the demo shop's catalog with
// its pictures drawn. Everything else (validation, limits, origins) is loadConfig's, as in the bin.
import { loadConfig, type ProxyConfig } from '../proxy/config/config.js';
import { catalogFromConfig, exitIfStartFails, serveConfigured, type StartOptions } from '../proxy/node.js';
import { prepareShopCatalog } from './shop/tryon-catalog.js';
import { connectTryonService } from './tryon-service.js';

async function catalogFor(config: ProxyConfig): Promise<Pick<StartOptions, 'catalog' | 'assetsDir' | 'fileIdCache'>> {
  if (config.catalogPath) return catalogFromConfig(config);
  const shop = await prepareShopCatalog();
  console.log(`tryon proxy: no TRYON_CATALOG, so serving the demo shop's catalog (images in ${shop.imagesDir})`);
  return { catalog: shop.catalog, assetsDir: shop.imagesDir };
}

await exitIfStartFails(async () => {
  const config = loadConfig(process.env);
  const catalog = await catalogFor(config);
  const service = await connectTryonService(config, {
    port: 0,
    hostname: '127.0.0.1',
    speed: Number(process.env.SANDBOX_SPEED ?? 1),
  });
  if (service.sandbox)
    console.log(
      `tryon proxy: no TRYON_API_KEY, so using an in-process sandbox at ${service.sandbox.url} (a stand-in; nothing is billed)`,
    );
  // A fresh in-process sandbox knows none of last run's files: remember upload ids only for a real service.
  const { fileIdCache, ...rest } = catalog;
  await serveConfigured(
    // The in-process sandbox's speed, which only the demo knows: unless TRYON_TYPICAL_SECONDS says otherwise.
    { ...config, typicalSeconds: config.typicalSeconds ?? service.typicalSeconds },
    {
      apiKey: service.apiKey,
      baseUrl: service.baseUrl,
      upstreamLabel: service.upstreamLabel,
      ...rest,
      ...(fileIdCache && (!service.sandbox || config.fileIdCachePath) ? { fileIdCache } : {}),
    },
    () => service.close(),
  );
});
