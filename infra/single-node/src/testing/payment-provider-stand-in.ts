import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the payment provider's HTTP API, and only that (docs/behaviour/billing.md, "The payment provider"):
 * a real HTTP server, run by the test, that answers the calls the platform makes (setups and payment methods, with
 * the secret key) and serves the hosted card fields page the browser opens, which sends the card to this server,
 * never to the platform. No real provider can be reached from here. `cardBodies` records every card number it was
 * sent, so a test can tell the card went here.
 */
export interface PaymentProviderStandIn {
  url: string;
  secretKey: string;
  publishableKey: string;
  cardNumbersReceived: string[];
  close(): Promise<void>;
}

interface Setup {
  id: string;
  client_secret: string;
  status: 'requires_payment_method' | 'succeeded';
  payment_method: string | null;
  metadata: { firm?: string };
}
interface Card {
  id: string;
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
}

const HOSTED_PAGE = `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Card details</title>
<style>body{font-family:system-ui,sans-serif;margin:8px}label{display:block;margin:6px 0}input{font-size:14px}</style></head>
<body><form id="card">
<label>Card number <input name="number" autocomplete="cc-number" inputmode="numeric"></label>
<label>Expiry month <input name="exp_month" inputmode="numeric" size="2"></label>
<label>Expiry year <input name="exp_year" inputmode="numeric" size="4"></label>
<label>CVC <input name="cvc" inputmode="numeric" size="4"></label>
<button type="submit">Save card</button><p id="problem" role="alert"></p></form>
<script>
const params = new URLSearchParams(location.search);
document.getElementById('card').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const answer = await fetch('/v1/setup_intents/' + params.get('setup') + '/confirm', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + params.get('key') },
    body: JSON.stringify({ client_secret: params.get('client_secret'), card: Object.fromEntries(form) }),
  });
  if (!answer.ok) { document.getElementById('problem').textContent = (await answer.json()).error; return; }
  parent.postMessage({ type: 'setup_intent.succeeded', setupIntent: params.get('setup') }, params.get('parent_origin'));
});
</script></body></html>`;

const brandOf = (number: string) =>
  number.startsWith('4') ? 'visa' : /^5[1-5]/.test(number) ? 'mastercard' : number.startsWith('3') ? 'amex' : 'unknown';

export async function startPaymentProviderStandIn(): Promise<PaymentProviderStandIn> {
  const secretKey = `sk_test_${randomBytes(8).toString('hex')}`;
  const publishableKey = `pk_test_${randomBytes(8).toString('hex')}`;
  const setups = new Map<string, Setup>();
  const cards = new Map<string, Card>();
  const cardNumbersReceived: string[] = [];

  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stand-in');
      const send = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      const auth = request.headers.authorization ?? '';
      const json = () => (body ? (JSON.parse(body) as Record<string, unknown>) : {});
      if (request.method === 'GET' && url.pathname === '/hosted/card') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return response.end(HOSTED_PAGE);
      }
      const confirm = /^\/v1\/setup_intents\/([^/]+)\/confirm$/.exec(url.pathname);
      if (request.method === 'POST' && confirm) {
        // The browser's call, with the publishable key: the only place a card number is ever sent.
        const setup = setups.get(confirm[1]!);
        const input = json() as { client_secret?: string; card?: Record<string, string> };
        if (auth !== `Bearer ${publishableKey}` || !setup || input.client_secret !== setup.client_secret)
          return send(401, { error: 'Not allowed' });
        const number = (input.card?.number ?? '').replace(/\s/g, '');
        if (!/^\d{12,19}$/.test(number)) return send(400, { error: 'Your card number is incomplete.' });
        cardNumbersReceived.push(number);
        const card: Card = {
          id: `pm_${randomBytes(8).toString('hex')}`,
          card: {
            brand: brandOf(number),
            last4: number.slice(-4),
            exp_month: Number(input.card?.exp_month),
            exp_year: Number(input.card?.exp_year),
          },
        };
        cards.set(card.id, card);
        Object.assign(setup, { status: 'succeeded', payment_method: card.id });
        return send(200, { id: setup.id, status: setup.status });
      }
      // Everything else is the platform's, with the secret key.
      if (auth !== `Bearer ${secretKey}`) return send(401, { error: 'Invalid API key' });
      if (request.method === 'POST' && url.pathname === '/v1/setup_intents') {
        const setup: Setup = {
          id: `seti_${randomBytes(8).toString('hex')}`,
          client_secret: randomBytes(12).toString('hex'),
          status: 'requires_payment_method',
          payment_method: null,
          metadata: (json().metadata as Setup['metadata'] | undefined) ?? {},
        };
        setups.set(setup.id, setup);
        return send(200, setup);
      }
      const setupPath = /^\/v1\/setup_intents\/([^/]+)$/.exec(url.pathname);
      if (request.method === 'GET' && setupPath) {
        const setup = setups.get(setupPath[1]!);
        return setup ? send(200, setup) : send(404, { error: 'No such setup' });
      }
      const cardPath = /^\/v1\/payment_methods\/([^/]+)$/.exec(url.pathname);
      if (cardPath) {
        const card = cards.get(cardPath[1]!);
        if (!card) return send(404, { error: 'No such payment method' });
        if (request.method === 'POST') {
          const update = (json().card ?? {}) as { exp_month?: number; exp_year?: number };
          card.card = { ...card.card, exp_month: update.exp_month ?? card.card.exp_month, exp_year: update.exp_year ?? card.card.exp_year };
        }
        return send(200, card);
      }
      return send(404, { error: 'Not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    publishableKey,
    cardNumbersReceived,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
