# syntax=docker/dockerfile:1
# One image recipe for every service: `docker build --build-arg SERVICE=auth .`, and the web
# tier: `docker build --target web .` (the built web app on unprivileged nginx, infra/web).
# The runtime image holds compiled output, package manifests and production dependencies only:
# no sources, tests, specs or test servers (`npm test`'s deploy tier, infra/dockerfile-check.mjs).
ARG NODE_VERSION=22
# Pinned by tag (nginx 1.28, the stable line, on Alpine). No digest: these machines reach no
# registry to read one; pin `@sha256:…` when building where one can be checked.
ARG NGINX_IMAGE=nginxinc/nginx-unprivileged:1.28.0-alpine

# ── dependencies (cached while package files do not change) ──────────────────
FROM node:${NODE_VERSION}-bookworm-slim AS deps
# The npm the workspace uses (npm 11), which reads package.json's `allowScripts`: install scripts
# of the listed packages run, `false` ones such as @scarf/scarf's telemetry do not. The npm
# bundled with Node 22 is older and ignores that field.
ARG NPM_VERSION=11.19.1
RUN npm install --global "npm@${NPM_VERSION}" --no-audit --no-fund --loglevel=error
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY libs/crypto/package.json libs/crypto/
COPY libs/contracts/package.json libs/contracts/
COPY libs/server-kit/package.json libs/server-kit/
COPY libs/storage/package.json libs/storage/
COPY apps/auth/package.json apps/auth/
COPY apps/gateway/package.json apps/gateway/
COPY apps/notes/package.json apps/notes/
COPY apps/files/package.json apps/files/
COPY apps/admin/package.json apps/admin/
COPY apps/scan-worker/package.json apps/scan-worker/
COPY apps/web/package.json apps/web/
COPY apps/e2e/package.json apps/e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund

# ── build every project (TypeScript project references) ──────────────────────
FROM deps AS build
COPY tsconfig.base.json tsconfig.json ./
COPY libs libs
COPY apps apps
RUN npx tsc -b tsconfig.json && node node_modules/vite/bin/vite.js build apps/web

# ── production dependencies only ─────────────────────────────────────────────
FROM deps AS prod-deps
RUN npm prune --omit=dev --no-audit --no-fund

# ── web: the built web app on nginx, unprivileged (compose service `web`) ────────
# Before `runtime`, so that a build without --target still makes a service image. Only the
# built app (static files) and infra/web's templates and render script: no Node, no sources.
# At start the image's entrypoint runs render.sh (/docker-entrypoint.d), which writes the
# configuration and /env-config.js from the environment into /tmp/vault-web, so the root
# filesystem can be read-only and one image serves every install (docs/operations.md "The web tier").
FROM ${NGINX_IMAGE} AS web
ENV WEB_TEMPLATE_DIR=/etc/vault-web \
    WEB_RUNTIME_DIR=/tmp/vault-web \
    WEB_ROOT=/usr/share/nginx/html \
    LISTEN_PORT=8080 \
    GATEWAY_UPSTREAM=gateway:8080
COPY infra/web/nginx.conf.template infra/web/security-headers.conf.template infra/web/proxy.conf.template /etc/vault-web/
COPY --chmod=0755 infra/web/render.sh /docker-entrypoint.d/40-vault-web.sh
COPY --from=build /app/apps/web/dist /usr/share/nginx/html
# The base image's own user (nginx, uid 101): never root.
USER 101
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=5 \
  CMD wget -q -O /dev/null "http://127.0.0.1:${LISTEN_PORT}/env-config.js" || exit 1
CMD ["nginx", "-c", "/tmp/vault-web/nginx.conf", "-g", "daemon off;"]

# ── what every Node image holds: production dependencies and every lib's build ─────
# Each project's package.json and its tsconfig build output (dist): the tsconfigs leave out
# *.spec.ts and src/testing, and the libs' test servers (`@vault/storage/testing`,
# `@vault/server-kit/testing`) build into libs/*/testing/dist, which is not copied.
FROM node:${NODE_VERSION}-bookworm-slim AS node-base
ENV NODE_ENV=production
WORKDIR /app
COPY --from=prod-deps /app/node_modules node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/libs/contracts/package.json libs/contracts/
COPY --from=build /app/libs/contracts/dist libs/contracts/dist
COPY --from=build /app/libs/crypto/package.json libs/crypto/
COPY --from=build /app/libs/crypto/dist libs/crypto/dist
COPY --from=build /app/libs/server-kit/package.json libs/server-kit/
COPY --from=build /app/libs/server-kit/dist libs/server-kit/dist
COPY --from=build /app/libs/storage/package.json libs/storage/
COPY --from=build /app/libs/storage/dist libs/storage/dist

# ── backup: npm run backup / restore in a one-off container (docs/backup.md) ──────
# Before `runtime` too. The PostgreSQL 15 client tools, the four migrating services' build output
# (restore runs their migrations) and the backup scripts: no tests.
FROM node-base AS backup
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-client-15 \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir /backups && chown node:node /backups
ENV BACKUP_DIR=/backups
COPY --from=build /app/apps/auth/package.json apps/auth/
COPY --from=build /app/apps/auth/dist apps/auth/dist
COPY --from=build /app/apps/notes/package.json apps/notes/
COPY --from=build /app/apps/notes/dist apps/notes/dist
COPY --from=build /app/apps/files/package.json apps/files/
COPY --from=build /app/apps/files/dist apps/files/dist
COPY --from=build /app/apps/admin/package.json apps/admin/
COPY --from=build /app/apps/admin/dist apps/admin/dist
COPY scripts/backup.mjs scripts/restore.mjs scripts/
COPY scripts/lib/util.mjs scripts/lib/
COPY scripts/lib/backup/backup.mjs scripts/lib/backup/env.mjs scripts/lib/backup/manifest.mjs scripts/lib/backup/restore.mjs scripts/lib/backup/
USER node
CMD ["node", "scripts/backup.mjs"]

# ── runtime: one service ─────────────────────────────────────────────────────
FROM node-base AS runtime
ARG SERVICE
RUN test -n "$SERVICE" || (echo "build with --build-arg SERVICE=<auth|notes|files|admin|scan-worker|gateway>" && exit 1)
ENV SERVICE=${SERVICE}
COPY --from=build /app/apps/${SERVICE}/package.json apps/${SERVICE}/
COPY --from=build /app/apps/${SERVICE}/dist apps/${SERVICE}/dist
# The gateway's placeholder page (apps/gateway/static, served when WEB_ROOT has no index.html);
# the pattern matches nothing for the other services, which BuildKit accepts.
COPY --from=build /app/apps/${SERVICE}/stati[c] apps/${SERVICE}/static/
# The key generator compose's one-off keygen service runs (on the auth image). The web app is
# not here: the `web` image serves it (compose and Kubernetes); the gateway serves it only in
# local mode, from the checkout.
COPY infra/keygen.mjs infra/keygen.mjs
USER node
CMD ["sh", "-c", "exec node apps/$SERVICE/dist/main.js"]
