/** A realistic order transform must run entirely on the fast path and match jsonata. */
import { expect } from 'chai';
import jsonata from 'jsonata';
import { compileExpression, PLATFORM_FUNCTIONS } from '../../../src/engine/expr';

export const ORDER_TRANSFORM = `{
  "id": body.order_id,
  "customer": $uppercase(body.customer.name),
  "email": $lowercase(body.customer.email),
  "city": $join($map($split(body.customer.city, " "), function($w){ $uppercase($substring($w, 0, 1)) & $lowercase($substring($w, 1)) }), " "),
  "lines": $count(body.items),
  "total": $round($sum(body.items.(price * qty)), 2),
  "skus": $join(body.items.sku, ","),
  "expensive": body.items[price > 10].sku,
  "first": body.items[0].sku,
  "last": body.items[-1].sku,
  "vip": body.customer.tier = "gold" or $sum(body.items.(price * qty)) > 100,
  "shipping": body.shipping.method ? body.shipping.method : "standard",
  "lines_detail": body.items.{ "sku": sku, "amount": price * qty, "tags": $join(tags, "|") },
  "signature": $sha256(body.order_id & ":" & $string($count(body.items))),
  "trace": correlation_id
}`;

export const ORDER_INPUT = {
  correlation_id: 'c-42',
  body: {
    order_id: 'ORD-1001',
    customer: { name: 'Ann Lee', email: 'Ann.Lee@Example.COM', city: 'new york city', tier: 'silver' },
    items: [
      { sku: 'A-1', price: 12.5, qty: 2, tags: ['red'] },
      { sku: 'B-2', price: 3.99, qty: 3 },
      { sku: 'C-3', price: 45, qty: 1, tags: ['big', 'fragile'] },
    ],
    shipping: { method: 'express' },
  },
};

describe('engine/expr realistic order transform', () => {
  it('compiles to closures (fast === true) and gives jsonata\'s result', async () => {
    const compiled = compileExpression(ORDER_TRANSFORM);
    expect(compiled.fast, compiled.fallbackReason).to.equal(true);
    const ref = jsonata(ORDER_TRANSFORM);
    for (const [name, f] of Object.entries(PLATFORM_FUNCTIONS)) ref.registerFunction(name, f.implementation, f.signature);
    const expected = await ref.evaluate(ORDER_INPUT);
    const actual = compiled.evaluate(ORDER_INPUT);
    expect(actual).to.not.be.instanceOf(Promise);
    expect(actual).to.deep.equal(expected);
    expect(actual).to.deep.include({
      id: 'ORD-1001', customer: 'ANN LEE', email: 'ann.lee@example.com', city: 'New York City',
      lines: 3, total: 81.97, skus: 'A-1,B-2,C-3', expensive: ['A-1', 'C-3'], vip: false, shipping: 'express', trace: 'c-42',
    });
  });
});
