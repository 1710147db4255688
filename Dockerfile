# The API, jobs and quick start in one image (the devnets run inside it, on loopback).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The explorer and operations pages, bundled offline from node_modules (web/build.ts).
RUN npx tsx web/build.ts
ENV NODE_ENV=development HOST=0.0.0.0 PORT=3000
EXPOSE 3000
CMD ["node", "--import", "tsx", "scripts/dev.ts"]
