"""The CRNN: convolutions + BiLSTM, per-frame log-softmax over the alphabet (class 0 = CTC blank).

Input [N, 1, 32, W] (preprocessed cells, ink bright), output [N, W/4, classes] log-probabilities.
"""
import torch
from torch import nn


def block(cin, cout):
    return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]


class CRNN(nn.Module):
    def __init__(self, num_classes, height=32, channels=(24, 48, 96, 96, 144), hidden=128, layers=2):
        super().__init__()
        c1, c2, c3, c4, c5 = channels
        self.cnn = nn.Sequential(
            *block(1, c1), nn.MaxPool2d(2, 2),            # 16 x W/2
            *block(c1, c2), nn.MaxPool2d(2, 2),           # 8 x W/4
            *block(c2, c3), *block(c3, c4), nn.MaxPool2d((2, 1), (2, 1)),  # 4 x W/4
            *block(c4, c5), nn.MaxPool2d((2, 1), (2, 1)),  # 2 x W/4
        )
        feat = c5 * (height // 16)
        self.proj = nn.Sequential(nn.Linear(feat, hidden), nn.ReLU(inplace=True), nn.Dropout(0.1))
        self.rnn = nn.LSTM(hidden, hidden, num_layers=layers, bidirectional=True, batch_first=True,
                           dropout=0.1 if layers > 1 else 0.0)
        self.out = nn.Linear(2 * hidden, num_classes)

    def forward(self, x):
        f = self.cnn(x)                      # N, C, 2, T
        n, c, h, t = f.shape
        f = f.permute(0, 3, 1, 2).reshape(n, t, c * h)
        f = self.proj(f)
        f, _ = self.rnn(f)
        return torch.log_softmax(self.out(f), dim=-1)


STRIDE = 4


def frames_for(content_width):
    return (content_width + STRIDE - 1) // STRIDE


def count_params(m):
    return sum(p.numel() for p in m.parameters())
