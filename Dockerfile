# One image for every process of the system; the compose file picks the entry point per service.
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && NX_DAEMON=false NX_NO_CLOUD=true npx nx run-many -t build --outputStyle=static && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production DATA_DIR=/data
COPY --from=build /app /app
# A volume mounted here (uploads, kept evidence, the token key) starts owned by the user that writes it.
RUN mkdir -p /data && chown node:node /data
USER node
CMD ["node", "--max-old-space-size=128", "apps/gateway/dist/main.js"]
