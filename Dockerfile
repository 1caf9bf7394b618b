# One image for the API (which also serves the built web app, and the operator console under /admin),
# the worker and the sandbox, each run from its compiled build with node. The compiler, tsx and the
# development tools stay in the build stage.

# Build: everything installed, the Prisma client generated, the web app, the console and the three apps built.
FROM node:22-bookworm-slim AS build
ENV PNPM_HOME=/pnpm PATH=/pnpm:$PATH PRISMA_SCHEMA_ENGINE_BINARY=/dev/null
RUN npm install -g pnpm@10.34.9
WORKDIR /app
COPY . .
RUN pnpm install --frozen-lockfile \
  && pnpm --filter @store/db generate \
  && pnpm --filter @store/web build \
  && pnpm --filter @store/admin build \
  && pnpm --filter @store/api --filter @store/worker --filter @store/sandbox build

# Production dependencies of the three apps, nothing else, without install scripts: none of them needs
# one (argon2's binary is a package of its own), and the Prisma engines' would download engines the
# apps do not use. @prisma/client names the Prisma CLI and TypeScript as optional peers, so the
# lockfile installs them beside it: the built apps use neither (the client was generated above), and
# they go.
FROM node:22-bookworm-slim AS deps
ENV PNPM_HOME=/pnpm PATH=/pnpm:$PATH
RUN npm install -g pnpm@10.34.9
WORKDIR /app
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY apps/api/package.json apps/api/
COPY apps/worker/package.json apps/worker/
COPY apps/sandbox/package.json apps/sandbox/
COPY apps/web/package.json apps/web/
COPY apps/admin/package.json apps/admin/
COPY packages/contract/package.json packages/contract/
COPY packages/core/package.json packages/core/
COPY packages/db/package.json packages/db/
COPY bench/package.json bench/
RUN pnpm install --frozen-lockfile --prod --ignore-scripts \
    --filter @store/api... --filter @store/worker... --filter @store/sandbox... \
  && rm -rf node_modules/.pnpm/typescript@* node_modules/.pnpm/prisma@* \
    node_modules/.pnpm/@prisma+studio-core@* node_modules/.pnpm/@prisma+dev@* \
  && if find node_modules/.pnpm -maxdepth 1 \( -name 'tsx@*' -o -name 'typescript@*' -o -name 'esbuild@*' \) | grep .; then \
    echo 'a build tool is among the production dependencies' >&2; exit 1; fi

# Run: the production dependencies, the bundles and the files they read at run time, in the
# repository's layout (the bundles find the migrations, the images and the web app beside them).
FROM node:22-bookworm-slim
# Inside a container the API must listen on every interface to be reachable through a published port.
ENV NODE_ENV=production HOST=0.0.0.0
WORKDIR /app
COPY --from=deps /app /app
COPY --from=build /app/prisma/migrations prisma/migrations
COPY --from=build /app/packages/db/assets packages/db/assets
COPY --from=build /app/apps/web/dist apps/web/dist
COPY --from=build /app/apps/admin/dist apps/admin/dist
COPY --from=build /app/apps/api/dist apps/api/dist
COPY --from=build /app/apps/worker/dist apps/worker/dist
COPY --from=build /app/apps/sandbox/dist apps/sandbox/dist
COPY --from=build /app/apps/sandbox/src/assets apps/sandbox/src/assets
# The embedded database's folder, for a container run without DATABASE_URL.
RUN mkdir -p .data && chown node:node .data
USER node
EXPOSE 3000
# The same command as `pnpm start` (apps/api/package.json): PGlite's WebAssembly compiled by the
# baseline compiler only, a small young generation, an old generation that grows by less.
WORKDIR /app/apps/api
CMD ["node", "--liftoff-only", "--max-semi-space-size=2", "--optimize-for-size", "--enable-source-maps", "dist/server.js"]
