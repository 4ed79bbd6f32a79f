# syntax=docker/dockerfile:1
#
# gamequiv server image. Build: docker build -t gamequiv .
# It holds the server and the gamequiv CLI (for `gamequiv token`, run with
# docker compose exec: it reads the same GAMEQUIV_DATA and
# GAMEQUIV_DATABASE_URL as the server).
# The SQLite driver (gorm.io/driver/sqlite, mattn/go-sqlite3) needs cgo, so the
# binary is built with gcc and linked against glibc. The builder is the
# bookworm variant of golang:1.26 so that its glibc matches the runtime image.

FROM golang:1.26-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY go.mod go.sum ./
# go.mod replaces gophersat with this patched copy (third_party/gophersat/README.md).
COPY third_party ./third_party
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
ENV CGO_ENABLED=1
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    go build -trimpath -buildvcs=false -ldflags='-s -w' -o /out/gamequiv-server ./cmd/server \
 && go build -trimpath -buildvcs=false -ldflags='-s -w' -o /out/gamequiv ./cmd/gamequiv

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin gamequiv \
 && mkdir -p /data \
 && chown gamequiv:gamequiv /data
COPY --from=build /out/gamequiv-server /out/gamequiv /usr/local/bin/
USER gamequiv
ENV GAMEQUIV_ADDR=0.0.0.0:8080 \
    GAMEQUIV_DATA=/data
VOLUME /data
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/gamequiv-server"]
