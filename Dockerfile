# The Utility Media API as a container image. Build: docker build -t utility-media-api .
# Run:   docker run -p 3000:3000 -v uma-data:/data utility-media-api
# Settings are environment variables (README, .env.example); DATA_DIR is /data here.

# Node 24 LTS, one of the lines the test suite runs on (scripts/node-lts.mjs; checked by
# test/system/process/container.test.ts). Its SQLite driver is better-sqlite3 13, whose
# Node-API binary ships in the npm package (src/store/sqlite/driver.ts).

# --- build: compile TypeScript (and better-sqlite3 12, Node 20's driver, which npm
# installs and builds too though Node 24 never loads it), then drop the dev dependencies ---
FROM node:24-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# npm install, not npm ci: it installs exactly the versions package-lock.json records,
# but npm ci refuses this lock file (the registry's @napi-rs/canvas lacks optional
# platform builds the lock lists; see scripts/prepare.mjs).
RUN npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# The browser pages (playground, console) are bundled from web/ by scripts/build-web.mjs.
COPY scripts ./scripts
COPY web ./web
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# --- run ---
FROM node:24-bookworm-slim
# jemalloc: the launcher preloads it (scripts/start.mjs); the server then hands memory
# back after a load instead of keeping glibc's arenas.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libjemalloc2 \
 && rm -rf /var/lib/apt/lists/*
ENV DATA_DIR=/data \
    PORT=3000 \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json package-lock.json LICENSE README.md CHANGELOG.md .env.example ./
COPY scripts ./scripts
COPY assets ./assets
COPY docs ./docs
# prepare.mjs (run by the launcher) installs again when the lock file looks newer than
# node_modules: never here, whatever mtimes COPY kept.
RUN touch node_modules/.package-lock.json && mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The README's start command (npm start runs it), without npm in between so that
# SIGTERM reaches the launcher, which passes it on for a graceful close.
CMD ["node", "scripts/start.mjs"]
