# Production image: the compiled build (npm run build → dist/, plain node, no TypeScript at run
# time), production dependencies only, no devnets or demo data, running as the unprivileged `node`
# user. One image, a role per container:
#   docker run … campaign-rewards-api api         the HTTP API on $PORT (run several)
#   docker run … campaign-rewards-api scheduler   every job on its cron (one per job set)
#   docker run … campaign-rewards-api migrate     SQL migrations and search indices, then exit
#   docker run … campaign-rewards-api jobs list   the jobs CLI (run, pause, backfill, check, …)
# Configuration is the environment (README › Running against real chains, .env.example).

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=prod-deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --chown=root:root package.json ./
COPY --chown=root:root scripts/docker-entrypoint.sh ./scripts/docker-entrypoint.sh
USER node
EXPOSE 3000
ENTRYPOINT ["sh", "scripts/docker-entrypoint.sh"]
CMD ["api"]
