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

const env = loadCliEnvOrExit({ needsCodeKey: catalogueSize === undefined });
const database = await createDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  if (catalogueSize !== undefined) {
    const total = await generateCatalogue(database.prisma, { products: catalogueSize });
    console.log(`catalogue now holds ${total} products`);
  } else {
    if (env.usesDevCodeKey) {
      console.warn('CODE_ENCRYPTION_KEY is not set: demo codes are encrypted with the development key.');
    }
    const seeded = await seedDemo(database.prisma, { cipher: createCodeCipher(env.codeKey) });
    console.log(seeded ? 'demo store seeded' : 'the store already has a catalogue; nothing seeded');
  }
} finally {
  await database.close();
}
