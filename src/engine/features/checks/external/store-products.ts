/**
 * Products and prices of a store page the classifier can read: schema.org `Product` items with
 * their `Offer` (or `AggregateOffer`) in the page's JSON-LD, or — for a Shopify store whose page
 * has none — the store's own product list (`/products.json`), priced in the currency the page
 * declares. A product without a price or a currency is left out rather than guessed.
 */

export interface StoreProduct {
  name: string;
  price: number;
  currency: string;
  billing: 'one_time' | 'monthly';
  url: string;
}

/** Products listed per store at most. */
export const STORE_PRODUCTS_MAX = 20;

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object' && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]);
const typesOf = (node: Node) => list(node['@type']).map(String);

/** The JSON-LD blocks of an HTML page, parsed (blocks that do not parse are skipped). */
export function jsonLdBlocks(html: string): unknown[] {
  const blocks: unknown[] = [];
  for (const match of html.matchAll(/<script[^>]+type\s*=\s*["']application\/ld\+json["'][^>]*>([\s\S]*?)<\/script>/gi)) {
    try {
      blocks.push(JSON.parse(match[1]!.trim()));
    } catch {
      // a broken block says nothing
    }
  }
  return blocks;
}

/** Every schema.org Product in the blocks, through @graph lists, ItemLists and nested items. */
function productNodes(value: unknown, out: Node[] = [], depth = 0): Node[] {
  if (depth > 8) return out;
  for (const item of list(value)) {
    if (!isNode(item)) continue;
    if (typesOf(item).includes('Product')) out.push(item);
    for (const key of ['@graph', 'itemListElement', 'item', 'mainEntity', 'hasVariant']) productNodes(item[key], out, depth + 1);
  }
  return out;
}

function monthly(offer: Node): boolean {
  const specs = list(offer.priceSpecification).filter(isNode);
  return specs.some((spec) => {
    const unit = String((isNode(spec.referenceQuantity) ? spec.referenceQuantity.unitCode : undefined) ?? spec.unitCode ?? '');
    return unit === 'MON' || /^P1M$/i.test(String(spec.billingDuration ?? ''));
  });
}

/** Products with a price and a currency from the page's JSON-LD. */
export function jsonLdProducts(html: string, pageUrl: string): StoreProduct[] {
  const products: StoreProduct[] = [];
  for (const node of productNodes(jsonLdBlocks(html))) {
    const name = typeof node.name === 'string' ? node.name.trim() : '';
    const offer = list(node.offers).find(isNode);
    if (!name || !offer) continue;
    const price = Number(offer.price ?? offer.lowPrice ?? (isNode(offer.priceSpecification) ? offer.priceSpecification.price : undefined));
    const currency = String(offer.priceCurrency ?? (isNode(offer.priceSpecification) ? offer.priceSpecification.priceCurrency : '') ?? '').trim().toUpperCase();
    if (!Number.isFinite(price) || price < 0 || !/^[A-Z]{3}$/.test(currency)) continue;
    products.push({ name, price, currency, billing: monthly(offer) ? 'monthly' : 'one_time', url: absolute(String(node.url ?? offer.url ?? ''), pageUrl) });
  }
  return dedupe(products);
}

/** A Shopify storefront: its page loads Shopify's scripts, or it is on myshopify.com. */
export function isShopify(html: string, pageUrl: string): boolean {
  return /cdn\.shopify\.com|Shopify\.shop\s*=|shopify-digital-wallet/i.test(html) || /\.myshopify\.com$/i.test(new URL(pageUrl).hostname);
}

/** The currency a Shopify page declares (`Shopify.currency`, or the price-currency meta tags). */
export function declaredCurrency(html: string): string | null {
  const found =
    /Shopify\.currency\s*=\s*\{[^}]*"active"\s*:\s*"([A-Za-z]{3})"/.exec(html)?.[1] ??
    /<meta[^>]+property\s*=\s*["'](?:og|product):price:currency["'][^>]+content\s*=\s*["']([A-Za-z]{3})["']/i.exec(html)?.[1] ??
    /"priceCurrency"\s*:\s*"([A-Za-z]{3})"/.exec(html)?.[1];
  return found ? found.toUpperCase() : null;
}

/** The store's own list (`/products.json`): title, handle, the first variant's price. */
export function shopifyProducts(json: string, storeUrl: string, currency: string): StoreProduct[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  const products: StoreProduct[] = [];
  for (const item of list(isNode(parsed) ? parsed.products : undefined)) {
    if (!isNode(item) || typeof item.title !== 'string') continue;
    const variant = list(item.variants).find(isNode);
    const price = Number(variant?.price);
    if (!Number.isFinite(price) || price < 0) continue;
    const handle = typeof item.handle === 'string' ? item.handle : '';
    products.push({ name: item.title.trim(), price, currency, billing: 'one_time', url: absolute(handle ? `/products/${handle}` : '', storeUrl) });
  }
  return dedupe(products);
}

/** Where a Shopify store lists its products. */
export function shopifyProductsUrl(pageUrl: string): string {
  return new URL('/products.json?limit=30', pageUrl).href;
}

function absolute(url: string, base: string): string {
  try {
    return new URL(url || base, base).href;
  } catch {
    return base;
  }
}

function dedupe(products: StoreProduct[]): StoreProduct[] {
  const seen = new Set<string>();
  return products.filter((product) => {
    const key = `${product.name}\0${product.url}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }).slice(0, STORE_PRODUCTS_MAX);
}
