# One image for every service; SERVICE picks the app (gateway, customers, ...).
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
ARG SERVICE=gateway
ENV SERVICE=${SERVICE}
USER node
CMD ["sh", "-c", "exec node dist/apps/${SERVICE}/src/main.js"]
