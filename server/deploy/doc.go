// Package deploy holds no code: it is the folder of toolgate's container
// image (Dockerfile) and Kubernetes manifests (kubernetes/), and its tests
// check the Dockerfile against the binary, build the image's binary on the
// host, and build and run the image itself where a Docker daemon answers.
// The manifests are checked against the binary's flags by
// server/cmd/toolgate's tests, which can parse them.
package deploy
