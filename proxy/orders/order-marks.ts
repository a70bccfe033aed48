// What an order or a refund tells the lift report, read from each source's body: the try-on's
// marks (the cart's `_tryon_group` and `_tryon_browser`, each line's `_tryon`), the total and its
// currency, and each line's product and units. Read leniently where a mark is only missing or odd
// (the order still counts, by group or as ungrouped), strictly where the body is not an order at
// all (400). Nothing else of the body is kept: no name, address, e-mail or order number.
import { z } from 'zod';
import { GROUPS, type Group } from './order-book.js';

/** The anonymous browser id the widget keeps (where the shop's visitor consent allows measurement). */
export const BROWSER_ID = /^[A-Za-z0-9_-]{22,64}$/;

export interface OrderLineFacts {
  /** The line's own key in its source (Shopify's line item id, the plugin's line key). */
  key: string;
  product: string;
  quantity: number;
  /** The catalog product the shopper tried on before adding this line, or null. */
  tryon: string | null;
}

export interface OrderFacts {
  /** The source's order id or key: only ever stored hashed. */
  id: string;
  currency: string | null;
  total: number;
  group: Group | null;
  browser: string | null;
  lines: OrderLineFacts[];
}

export interface RefundFacts {
  order: string;
  refund: string;
  lines: OrderLineFacts[];
}

const id = z.union([z.string().min(1).max(200), z.number().int().nonnegative()]).transform(String);
const money = z
  .union([z.string().regex(/^-?\d{1,15}(\.\d{1,6})?$/), z.number().finite()])
  .transform((value) => Number(value));
const quantity = z.number().int().min(0).max(1_000_000);
const currency = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .nullish()
  .transform((value) => value ?? null);

const group = (value: unknown): Group | null =>
  typeof value === 'string' && (GROUPS as readonly string[]).includes(value) ? (value as Group) : null;
const browser = (value: unknown): string | null => (typeof value === 'string' && BROWSER_ID.test(value) ? value : null);
const tryonMark = (value: unknown): string | null =>
  typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : null;

/** Shopify's name/value pairs (`note_attributes`, a line's `properties`); Shopify also sends an object in places. */
const attributes = z
  .union([z.array(z.object({ name: z.string(), value: z.unknown() }).passthrough()), z.record(z.string(), z.unknown())])
  .nullish()
  .transform((value): Record<string, unknown> =>
    Array.isArray(value) ? Object.fromEntries(value.map((pair) => [pair.name, pair.value])) : (value ?? {}),
  );

const shopifyLine = z
  .object({
    id,
    product_id: id.nullish(),
    variant_id: id.nullish(),
    quantity,
    properties: attributes,
  })
  .passthrough()
  .transform((line): OrderLineFacts => {
    const tryon = tryonMark(line.properties['_tryon']);
    return {
      key: line.id,
      // A custom line has no product: its try-on mark, else its own line, stands for it.
      product: line.product_id ?? tryon ?? `line:${line.id}`,
      quantity: line.quantity,
      tryon,
    };
  });

/** Shopify's `orders/create` body (the Order resource). */
export const shopifyOrder = z
  .object({
    id,
    total_price: money,
    currency,
    note_attributes: attributes,
    line_items: z.array(shopifyLine).max(1000),
  })
  .passthrough()
  .transform((order): OrderFacts => ({
    id: order.id,
    currency: order.currency,
    total: order.total_price,
    group: group(order.note_attributes['_tryon_group']),
    browser: browser(order.note_attributes['_tryon_browser']),
    lines: order.line_items,
  }));

/** Shopify's `refunds/create` body (the Refund resource): each refunded line with its line item, properties and all. */
export const shopifyRefund = z
  .object({
    id,
    order_id: id,
    refund_line_items: z
      .array(z.object({ line_item_id: id.nullish(), quantity, line_item: shopifyLine }).passthrough())
      .max(1000)
      .nullish(),
  })
  .passthrough()
  .transform((refund): RefundFacts => ({
    order: refund.order_id,
    refund: refund.id,
    lines: (refund.refund_line_items ?? []).map((item) => ({ ...item.line_item, quantity: item.quantity })),
  }));

const pluginLine = z.object({
  line: id,
  product: id,
  quantity,
  total: money.optional(),
  tryon: z.string().max(200).nullish(),
});

const lineFacts = (line: z.infer<typeof pluginLine>): OrderLineFacts => ({
  key: line.line,
  product: line.product,
  quantity: line.quantity,
  tryon: tryonMark(line.tryon),
});

/** The WooCommerce plugin's body to the admin listener's POST /orders (docs/proxy.md). */
export const pluginEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('order.paid'),
    timestamp: z.string().max(64),
    data: z.object({
      order: id,
      currency,
      total: money,
      group: z.string().nullish(),
      browser: z.string().nullish(),
      lines: z.array(pluginLine).max(1000),
    }),
  }),
  z.object({
    type: z.literal('order.refunded'),
    timestamp: z.string().max(64),
    data: z.object({ order: id, refund: id, lines: z.array(pluginLine).max(1000) }),
  }),
]);

/** The plugin's event as the facts the book counts. */
export function pluginFacts(
  event: z.infer<typeof pluginEvent>,
): { kind: 'order'; order: OrderFacts } | { kind: 'refund'; refund: RefundFacts } {
  if (event.type === 'order.refunded')
    return {
      kind: 'refund',
      refund: { order: event.data.order, refund: event.data.refund, lines: event.data.lines.map(lineFacts) },
    };
  const data = event.data;
  return {
    kind: 'order',
    order: {
      id: data.order,
      currency: data.currency,
      total: data.total,
      group: group(data.group),
      browser: browser(data.browser),
      lines: data.lines.map(lineFacts),
    },
  };
}

/** The widget's exposure report, POST /exposures. */
export const exposureReport = z
  .object({
    product: z.string().min(1).max(200),
    group: z.enum(GROUPS),
    browser: z.string().regex(BROWSER_ID).nullish(),
  })
  .strict();
