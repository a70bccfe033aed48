// Whether a product's try-on can be offered right now, so the widget hides (or disables) its
// button before a shopper uploads anything: not when the catalog switches the product off, nor
// when what is left of the day's budget cannot cover its price (a try-on of its views as an
// image: the least a shopper can ask of it). Read from the spend ledger the try-ons reserve
// against, so every instance answers the same.
import { creditsFor, type PriceTable } from '../money/prices.js';
import { dailyRefusal, type SpendLedger, type SpendLimits } from '../money/spend-ledger.js';
import type { ProductEntry } from '../catalog/catalog.js';

export type Availability =
  { available: true } | { available: false; unavailableReason: 'disabled' | 'daily_budget_reached' };

export async function availabilityOf(
  services: { spend: SpendLedger; prices: PriceTable; limits: Pick<SpendLimits, 'dailyTryons' | 'dailyCredits'> },
  product: ProductEntry,
): Promise<Availability> {
  if (product.enabled === false) return { available: false, unavailableReason: 'disabled' };
  const spent = await services.spend.usage();
  const price = creditsFor(services.prices, product.tier, 'image', product.views.length);
  if (dailyRefusal(spent, services.limits, price))
    return { available: false, unavailableReason: 'daily_budget_reached' };
  return { available: true };
}
