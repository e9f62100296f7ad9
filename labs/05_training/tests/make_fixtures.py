#!/usr/bin/env python3
"""Makes lab 05's PyTorch fixtures: what torch computes for the lab's CNN and
iris MLP from the same weights and inputs as the C trainer, so that
test-lab05-cpu can check the C trainer against PyTorch without PyTorch.

Run once, from the repository root, with Debian's python3-torch
(apt-get install python3-torch):

    /usr/bin/python3 labs/05_training/tests/make_fixtures.py

Weights and inputs are not stored: they are drawn from gpulab's PCG32
(common/tests/rng_reference.py, the same numbers as lab/rng.h bit for bit)
exactly as l5_net_init() and the test draw them, so only torch's answers
are written (labs/05_training/tests/fixtures/*.npy, about 250 KB):

    cnn_loss.npy     (2,)        loss of step 1 and step 2 (same batch)
    cnn_grads1.npy   (n_params,) every gradient after step 1's backward, flat
                                 in state_dict order
    cnn_params2.npy  (n_params,) every parameter after two Adam steps
    mlp_losses.npy   (100,)      iris MLP: the loss of each of 100 full-batch
                                 epochs (Adam, lr 0.01)
    mlp_params.npy   (151,)      its parameters after the 100 epochs
"""

import math
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "common", "tests"))
import rng_reference as R  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "labs", "05_training"))
from torch_nets import CNN, MLP  # noqa: E402

# Keep in step with test_cpu.c.
CNN_SEED, CNN_BATCH, CNN_DATA_SEED = 5, 4, 7
MLP_SEED = 3


def uniform_fill(seed, stream, n, lo, hi):
    rng = R.Pcg32(seed, stream)
    return np.array([R.uniform_range(rng, lo, hi) for _ in range(n)], dtype=np.float32)


def below_fill(seed, stream, n, bound):
    rng = R.Pcg32(seed, stream)
    return np.array([rng.below(bound) for _ in range(n)], dtype=np.int64)


def init_like_c(model, seed):
    """l5_net_init: tensor i of the state_dict from stream i, uniform in
    [-1/sqrt(fan_in), 1/sqrt(fan_in))."""
    with torch.no_grad():
        for i, (name, p) in enumerate(model.state_dict().items()):
            owner = model.get_submodule(name.rsplit(".", 1)[0])
            w = owner.weight
            fan_in = w.shape[1] * (w.shape[2] * w.shape[3] if w.dim() == 4 else 1)
            bound = R.f32(1.0 / math.sqrt(fan_in))
            p.copy_(torch.from_numpy(uniform_fill(seed, i, p.numel(), -bound, bound)).view_as(p))


def flat(tensors):
    return np.concatenate([t.detach().numpy().ravel() for t in tensors]).astype(np.float32)


def cnn_fixtures(out):
    torch.manual_seed(0)
    model = CNN()
    init_like_c(model, CNN_SEED)
    n = CNN_BATCH * 3 * 32 * 32
    x = torch.from_numpy(uniform_fill(CNN_DATA_SEED, 0, n, -1.0, 1.0)).view(CNN_BATCH, 3, 32, 32)
    y = torch.from_numpy(below_fill(CNN_DATA_SEED, 1, CNN_BATCH, 10))
    opt = torch.optim.Adam(model.parameters())
    loss_fn = torch.nn.CrossEntropyLoss()
    losses = []
    for step in range(2):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        if step == 0:
            np.save(os.path.join(out, "cnn_grads1.npy"), flat(p.grad for p in model.parameters()))
        opt.step()
        losses.append(loss.item())
    np.save(os.path.join(out, "cnn_loss.npy"), np.array(losses, dtype=np.float32))
    np.save(os.path.join(out, "cnn_params2.npy"), flat(model.parameters()))


def mlp_fixtures(out):
    data = np.loadtxt(os.path.join(HERE, "..", "data", "iris.csv"), delimiter=",", skiprows=1)
    x = torch.from_numpy(data[:, :4].astype(np.float32))
    y = torch.from_numpy(data[:, 4].astype(np.int64))
    model = MLP()
    init_like_c(model, MLP_SEED)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    loss_fn = torch.nn.CrossEntropyLoss()
    losses = []
    for epoch in range(100):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    np.save(os.path.join(out, "mlp_losses.npy"), np.array(losses, dtype=np.float32))
    np.save(os.path.join(out, "mlp_params.npy"), flat(model.parameters()))


def main():
    out = os.path.join(HERE, "fixtures")
    os.makedirs(out, exist_ok=True)
    torch.set_num_threads(1)
    cnn_fixtures(out)
    mlp_fixtures(out)
    print("torch", torch.__version__, "->", out)


if __name__ == "__main__":
    main()
