# syntax=docker/dockerfile:1
# One image recipe for every service: `docker build --build-arg SERVICE=auth .`
# The runtime image holds compiled output, package manifests and production dependencies only:
# no sources, tests, specs or test servers (`npm test`'s deploy tier, infra/dockerfile-check.mjs).
ARG NODE_VERSION=22

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

# ── runtime: one service ─────────────────────────────────────────────────────
# Each project's package.json and its tsconfig build output (dist): the tsconfigs leave out
# *.spec.ts and src/testing, and the libs' test servers (`@vault/storage/testing`,
# `@vault/server-kit/testing`) build into libs/*/testing/dist, which is not copied.
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ARG SERVICE
RUN test -n "$SERVICE" || (echo "build with --build-arg SERVICE=<auth|notes|files|admin|scan-worker|gateway>" && exit 1)
ENV NODE_ENV=production \
    SERVICE=${SERVICE}
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
COPY --from=build /app/apps/${SERVICE}/package.json apps/${SERVICE}/
COPY --from=build /app/apps/${SERVICE}/dist apps/${SERVICE}/dist
# The gateway's placeholder page (apps/gateway/static, served when WEB_ROOT has no index.html);
# the pattern matches nothing for the other services, which BuildKit accepts.
COPY --from=build /app/apps/${SERVICE}/stati[c] apps/${SERVICE}/static/
# The built web app (static files, ~0.5 MB): the gateway serves it unless nginx does.
COPY --from=build /app/apps/web/dist apps/web/dist
COPY infra/keygen.mjs infra/keygen.mjs
USER node
CMD ["sh", "-c", "exec node apps/$SERVICE/dist/main.js"]
