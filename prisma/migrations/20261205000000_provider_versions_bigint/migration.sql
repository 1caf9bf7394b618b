-- A provider's version of a payment is 64-bit. Stripe's objects carry no revision: its adapter composes
-- one from Stripe's seconds, the status's rank and the share given back (stripe-provider.ts,
-- `stripeVersion`), about 2^50 today, past what an INTEGER holds, so a Stripe event could not be stored.
ALTER TABLE "payments" ALTER COLUMN "provider_version" SET DATA TYPE BIGINT;
ALTER TABLE "payment_events" ALTER COLUMN "version" SET DATA TYPE BIGINT;
