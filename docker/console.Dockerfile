# syntax=docker/dockerfile:1
# The console's image (issue 16): the single-page application built by Vite, served by nginx with
# the console's CSP. The build context is the repository root:
#   docker build -f docker/console.Dockerfile -t agp/console:0.1.0 .

ARG NODE_IMAGE=node:20-bookworm-slim
ARG NGINX_IMAGE=nginxinc/nginx-unprivileged:1.27-alpine

FROM ${NODE_IMAGE} AS build
ARG NPM_VERSION=11.19.1
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false \
    TURBO_TELEMETRY_DISABLED=1
RUN npm install --global "npm@${NPM_VERSION}"
WORKDIR /app
COPY . .
# The console's types are generated files of its own (F27): it builds with the libraries it
# uses (`...`: @agp/contracts), not the services it calls.
RUN --mount=type=cache,target=/root/.npm npm ci \
 && npx turbo run build --filter="@agp/console..."

# Static files only: no Node at run time. nginx-unprivileged runs as uid 101 on port 8080.
FROM ${NGINX_IMAGE} AS console
COPY docker/console/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=build /app/apps/console/dist/ /usr/share/nginx/html/
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --retries=3 \
  CMD ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/healthz"]
