# One image for every app; its argument picks the app: `docker run paykit cards`, or in
# Kubernetes `args: ["cards"]` (deploy/k8s). Built and run as in CI: `npm ci`, `npm run build`.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps ./apps
COPY libs ./libs
COPY tools ./tools
COPY tsconfig.base.json tsconfig.json .swcrc.json nx.json ./
RUN npm ci --no-audit --no-fund && npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/package.json ./package.json
# The image's `node` user, by number, so Kubernetes can check runAsNonRoot; nothing is written
# to the image's files at run time (read-only root filesystem).
USER 1000:1000
# The gateway's API; every app's probes (/livez, /readyz) when HEALTH_PORT is 9090.
EXPOSE 8080 9090
ENTRYPOINT ["node", "dist/tools/serve.js"]
CMD ["gateway"]
