# cugrade check in a container, for students on macOS and Windows (or any Linux without
# Debian's packages): a Debian 12 image holding cugrade's student distribution, whose entrypoint
# checks the folder mounted at /work in the CPU emulator. From the folder holding this file:
#
#   podman build -t cugrade .                          (or: docker build -t cugrade .)
#   cd ~/my-submission
#   podman run --rm -v "$PWD":/work cugrade matmul     (or: docker run ...; on SELinux hosts
#                                                       add :Z after /work)
#
# Arguments after the image name go to `cugrade check ASSIGNMENT /work --backend emu
# --no-sandbox`: the assignment, then any option of check (--kernel matmul_tiled, --all).
# --no-sandbox: the container is what confines your own code, and containers do not give the
# nested user namespaces cugrade's sandbox needs.
#
# The first stage builds cugrade's `grade` preset for this machine's architecture from the build
# context and packs it as a .deb (cmake/package.cmake); .dockerignore leaves reference/, every
# hidden.json and tests/ out of the context, so the image is the student distribution however
# complete the tree it is built from. The second stage installs that .deb, whose dependencies
# apt-get resolves from Debian 12.

FROM debian:12 AS build
COPY . /src
WORKDIR /src
RUN ./scripts/setup grade \
    && cd build/grade && cpack -G DEB -B /tmp/cpack \
    && mkdir /deb && mv /tmp/cpack/cugrade_*.deb /deb/

FROM debian:12
COPY --from=build /deb/ /deb/
RUN apt-get update -qq \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
       /deb/cugrade_*.deb \
    && rm -rf /deb /var/lib/apt/lists/* \
    && cugrade --version
WORKDIR /work
ENTRYPOINT ["/bin/sh", "-c", "exec cugrade check \"$0\" /work --backend emu --no-sandbox \"$@\""]
CMD ["--help"]
