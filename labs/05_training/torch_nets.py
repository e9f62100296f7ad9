"""Lab 05's two networks in PyTorch, for the fixtures (tests/make_fixtures.py)
and the benchmark (bench/bench_torch.py): the same layers, in the same order,
as net.c builds them, so that state_dict names and order match."""
import torch


class CNN(torch.nn.Module):
    """The CIFAR-10 CNN of net.c (l5_net_cnn; net.h lists its layers)."""

    def __init__(self):
        super().__init__()
        pool = torch.nn.MaxPool2d(2, 2)
        self.conv = torch.nn.Sequential(
            torch.nn.Conv2d(3, 6, 5), torch.nn.ReLU(), pool,
            torch.nn.Conv2d(6, 16, 5, padding=3), torch.nn.ReLU(),
            torch.nn.Conv2d(16, 16, 5), torch.nn.ReLU(), pool,
            torch.nn.Conv2d(16, 16, 3), torch.nn.ReLU(), pool,
            torch.nn.Flatten())
        self.fc = torch.nn.Sequential(
            torch.nn.Linear(64, 120), torch.nn.ReLU(),
            torch.nn.Linear(120, 84), torch.nn.ReLU(),
            torch.nn.Linear(84, 10))

    def forward(self, x):
        return self.fc(self.conv(x))


class MLP(torch.nn.Module):
    """The iris warm-up: 4 -> 8 -> 9 -> 3 with ReLU."""

    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(4, 8)
        self.fc2 = torch.nn.Linear(8, 9)
        self.out = torch.nn.Linear(9, 3)

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = torch.relu(self.fc2(x))
        return self.out(x)
