# One image for the API (which also serves the built web app) and the worker.
FROM node:22-bookworm-slim AS build
ENV PNPM_HOME=/pnpm PATH=/pnpm:$PATH PRISMA_SCHEMA_ENGINE_BINARY=/dev/null
RUN npm install -g pnpm@10.34.9
WORKDIR /app
COPY . .
RUN pnpm install --frozen-lockfile \
  && pnpm --filter @store/db generate \
  && pnpm --filter @store/web build

FROM node:22-bookworm-slim
# Inside a container the API must listen on every interface to be reachable through a published port.
ENV NODE_ENV=production HOST=0.0.0.0 PNPM_HOME=/pnpm PATH=/pnpm:$PATH
RUN npm install -g pnpm@10.34.9
WORKDIR /app
COPY --from=build /app /app
USER node
EXPOSE 3000
CMD ["pnpm", "--filter", "@store/api", "start"]
