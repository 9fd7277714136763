# syntax=docker/dockerfile:1
# One multi-stage build for every image of the distributed deployment, from the repository root:
#   docker build --target service --build-arg SERVICE=command-service -t pf/command-service .
#   (likewise query-service, realtime-gateway)
#   docker build --target proxy -t pf/proxy .      (the built console behind nginx, which is also the proxy)
# The workspaces install from the root package-lock.json; TypeScript runs through tsx (no build step).

FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY events/package.json events/
COPY infra/package.json infra/
COPY infra/single-node/package.json infra/single-node/
COPY command-service/package.json command-service/
COPY query-service/package.json query-service/
COPY realtime-gateway/package.json realtime-gateway/
COPY console/package.json console/
# tsx is a root devDependency and the services run on it, so dev dependencies stay installed.
RUN npm ci --no-audit --no-fund

FROM deps AS source
ARG SERVICE
RUN test -n "$SERVICE" || (echo "Pass --build-arg SERVICE=command-service|query-service|realtime-gateway" && exit 1)
COPY tsconfig.json ./
COPY events events
COPY infra infra
COPY ${SERVICE} ${SERVICE}

FROM node:22-bookworm-slim AS service
ARG SERVICE
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 SERVICE=${SERVICE}
WORKDIR /app
COPY --from=source --chown=node:node /app /app
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=5 \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["sh", "-c", "exec node --import tsx \"$SERVICE/src/main.ts\""]

FROM deps AS console-build
COPY tsconfig.json ./
COPY events events
COPY console console
RUN npm run build -w console

FROM nginx:1.27-alpine AS proxy
COPY infra/proxy/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=console-build /app/console/dist /usr/share/nginx/html
EXPOSE 80
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD wget -q -O /dev/null http://127.0.0.1/healthz || exit 1
