import { parseArgs } from 'node:util';
import { createCodeCipher } from '../code-cipher.ts';
import { createDatabase } from '../database.ts';
import { generateCatalogue, seedDemo } from '../seed/index.ts';
import { loadCliEnvOrExit } from './env.ts';

const { values } = parseArgs({ options: { catalogue: { type: 'string' } } });
const catalogueSize = values.catalogue === undefined ? undefined : Number(values.catalogue);
if (catalogueSize !== undefined && (!Number.isSafeInteger(catalogueSize) || catalogueSize < 1)) {
  console.error('--catalogue takes a positive whole number of products');
  process.exit(2);
}

// Only the demo's codes are encrypted: a generated catalogue needs no key.
const demo = catalogueSize === undefined ? loadCliEnvOrExit({ needsCodeKey: true }) : undefined;
const env = demo ?? loadCliEnvOrExit();
const database = await createDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  if (demo) {
    if (demo.usesDevCodeKey) {
      console.warn('CODE_ENCRYPTION_KEY is not set: demo codes are encrypted with the development key.');
    }
    const seeded = await seedDemo(database.prisma, { cipher: createCodeCipher(demo.codeKey) });
    console.log(seeded ? 'demo store seeded' : 'the store already has a catalogue; nothing seeded');
  } else {
    const total = await generateCatalogue(database.prisma, { products: catalogueSize });
    console.log(`catalogue now holds ${total} products`);
  }
} finally {
  await database.close();
}
