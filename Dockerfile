# The service image: compiled JavaScript only, run as the unprivileged `node` user (uid 1000).
#   docker build -t receivables .
#   docker run … receivables                                   # the service (dist/src/main.js)
#   docker run … receivables node dist/src/cli/main.js company:create --name "…" --email …
#   docker run … receivables node dist/src/database/migrate.main.js   # migrations only
# Node 24 LTS, the major CI's second pass runs the suite on (.ci/run); the service supports 20.19+ as well.
FROM node:24-bookworm-slim AS build
WORKDIR /app
# The npm that wrote the lockfile; `npm ci` installs exactly the locked versions, as .ci/run does.
RUN npm install -g npm@11.19.1 --no-audit --no-fund
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
# The service build needs only src/ and migrations/ (bench/ and test/ are built by `npm run bench`).
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY migrations ./migrations
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production APP_ENV=production PORT=3000 DATA_DIR=/data
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY package.json ./
# DATA_DIR (documents, outbox, print batches; the embedded database if DATABASE_URL is unset) belongs to
# `node`. A named volume mounted here starts as a copy of this folder, ownership included; a bind
# mount must be writable by uid 1000 (chown 1000:1000 <host folder>).
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=6s --start-period=60s --retries=3 CMD ["node", "dist/src/health/probe.js"]
# A larger young generation (32 MB semi-spaces): the many short-lived objects of each request die there
# instead of being copied on; fewer, cheaper garbage collections (push bench: 1.24 → 1.03 ms CPU per document).
# The old space grows by half of what the last major collection kept, not by V8's own factor (up to 4×): under
# a read load V8 let it reach 2.4× the 65 MB it keeps, and the peak RSS followed (customers bench: 367–376 →
# 253–259 MB at equal CPU per request). README, "Performance".
CMD ["node", "--max-semi-space-size=32", "--heap-growing-percent=50", "dist/src/main.js"]
