/** The ~300-byte order both servers of the /run benchmark receive. */
export const ORDER_BODY = JSON.stringify({
  order_id: 'WEB-2026-000123',
  currency: 'eur',
  customer: { name: 'Ada Lovelace', email: 'Ada.Lovelace@Example.COM', city: 'NEW yORK city' },
  shipping: { method: 'express' },
  items: [
    { sku: 'SKU-RED-S', price: 19.99, qty: 2 },
    { sku: 'SKU-BLUE-M', price: 5.5, qty: 3 },
    { sku: 'SKU-GREEN-L', price: 102.25, qty: 1 },
  ],
});
